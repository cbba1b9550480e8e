import type { DemoStep } from '../../db/seed/demo-step';

/** Demo procedure records (issue: validation workflow). */
export const recordsDemoStep: DemoStep = async () => {};
