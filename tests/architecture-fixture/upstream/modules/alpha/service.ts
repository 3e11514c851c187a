/** Breaks no-other-modules-routes. */
import { betaRoutes } from "../beta/routes.js";
export const service = betaRoutes;
