/**
 * /mine: the user centre, the same screen as /user (its loader, action, page, meta and handle). An
 * index route, so that it is no layout of the other /mine/* screens.
 */
export { action, loader } from "../user/user.server";
export { default, handle } from "../user/route";
