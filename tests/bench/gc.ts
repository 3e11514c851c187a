/**
 * A full garbage collection on demand, for the benches that time short stretches (bench:engine's
 * ticks, bench:copy's): the garbage of what ran before is then not collected inside the measured
 * stretch. Node exposes `gc` only with --expose-gc; the flag set at run time takes effect in a new
 * context, whose `gc` collects the whole heap.
 */
import v8 from "node:v8";
import vm from "node:vm";

export function fullCollection(): void {
  v8.setFlagsFromString("--expose-gc");
  (vm.runInNewContext("gc") as () => void)();
}
