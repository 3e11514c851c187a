/** HTTP code of the platform. */
export const reply = "reply";
