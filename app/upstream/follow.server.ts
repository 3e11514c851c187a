/** The trader ranking (contract/api/follow.ts). */
import * as followApi from "@contract/api/follow";
import { send, type Caller, type UpstreamResult } from "./client.server";

import type { FollowItem } from "@contract/api/follow";

export function followList(c: Caller): Promise<UpstreamResult<FollowItem[]>> {
  return send<FollowItem[]>(c, followApi.followList, {});
}
