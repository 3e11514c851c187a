/** Sign-in form (POST /login): the fields of loginForU. */
import { z } from "zod";
import { MSG, areaId, identityType, text } from "./fields";

export const loginSchema = z.object({
  login_type: identityType,
  account: text(MSG.account),
  password: z.string({ required_error: MSG.password }).min(1, MSG.password),
  area_id: areaId.optional(),
});
