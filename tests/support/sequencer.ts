/**
 * The order vitest starts test files in: the integration projects' files first, then the unit
 * projects'; within each, the order of vitest's own sequencer (the longest of the last run first,
 * or on a new clone, which has no record of one, the largest file first). An integration file runs
 * for seconds to tens of seconds in a process of its own, a unit file mostly for well under a
 * second: started last, the unit files fill the cores while the last integration files finish,
 * instead of one long file running alone at the end.
 */
import { BaseSequencer, type TestSpecification } from "vitest/node";

const isIntegration = (spec: TestSpecification) => spec.project.name.startsWith("integration");

export class IntegrationFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter(isIntegration), ...sorted.filter((s) => !isIntegration(s))];
  }
}
