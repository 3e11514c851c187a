/** Breaks no-circular (with b.ts) and no-composition-root. */
import { b } from "./b.js";
import { root } from "../../app.js";
export const a = (): string => b() + root;
