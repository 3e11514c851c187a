/** Composition root of the fixture. */
export const root = "app";
