/** Sign-out form (POST /logout from /mine/system): only the intent. */
import { z } from "zod";

export const logoutSchema = z.object({
  intent: z.literal("logout"),
});
