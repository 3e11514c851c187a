/** Pieces of the verification screens the server and the pages share. */
import { REAL_NAME_REQUEST } from "@contract/api/verify-rules";

/** The console queue's tabs (REAL_NAME_REQUEST, waiting first) with their message keys. */
export const VERIFY_TABS = [
  [REAL_NAME_REQUEST.WAITING, "verify:queue_1"],
  [REAL_NAME_REQUEST.APPROVED, "verify:queue_2"],
  [REAL_NAME_REQUEST.REJECTED, "verify:queue_3"],
] as const;
