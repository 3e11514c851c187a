/** Instrument search (GET /product?searchCurrency=...): the query of trade_list. */
import { z } from "zod";

export const searchSchema = z.object({
  searchCurrency: z.string().trim().max(32, "common:search_too_long").optional(),
});
