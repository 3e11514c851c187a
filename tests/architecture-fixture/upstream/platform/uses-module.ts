/** Breaks platform-without-modules (a value import of module code). */
import { service } from "../modules/alpha/service.js";
export const usesModule = service;
