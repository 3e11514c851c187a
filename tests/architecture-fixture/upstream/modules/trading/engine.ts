/** Breaks engine-and-money-without-http. */
import { reply } from "../../platform/http/reply.js";
export const engine = reply;
