import type { DemoStep } from '../../db/seed/demo-step';

/** Demo accounts (issue: staff sign-in). */
export const authDemoStep: DemoStep = async () => {};
