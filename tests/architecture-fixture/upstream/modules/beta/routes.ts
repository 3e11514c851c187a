/** A module's routes. */
export const betaRoutes = "beta";
