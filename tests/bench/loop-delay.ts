/**
 * A probe the cluster benchmark preloads into the node it measures (`node --import
 * ./tests/bench/loop-delay.ts`): the node's event-loop delay (perf_hooks.monitorEventLoopDelay,
 * 1 ms resolution), how long a timer waited behind other work. On SIGUSR2 the node prints one line,
 * `LOOP_DELAY {"p50Ms":…,"p99Ms":…,"maxMs":…,"samples":…}`, with the delays since the last
 * SIGUSR2 (or since it started), and starts over. Only benchmarks load it; the product never does.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";

const NS_PER_MS = 1e6;
const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();

process.on("SIGUSR2", () => {
  const line = {
    p50Ms: histogram.percentile(50) / NS_PER_MS,
    p99Ms: histogram.percentile(99) / NS_PER_MS,
    maxMs: histogram.max / NS_PER_MS,
    samples: histogram.count,
  };
  histogram.reset();
  process.stdout.write(`LOOP_DELAY ${JSON.stringify(line)}\n`);
});
