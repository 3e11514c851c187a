/** Uploads (upstream/API.md "Uploads"): images only, private to their owner and operators. */
import { z } from "zod";
import { endpoint } from "./endpoint";

/** A stored image: its server-made name (what a deposit's proofImg names) and where its owner reads it. */
export const UploadSchema = z.object({
  name: z.string(),
  url: z.string().describe("path on the upstream: GET it with the owner's token"),
  mime: z.string().describe("image/jpeg, image/png or image/webp"),
  width: z.number().int().describe("pixels"),
  height: z.number().int().describe("pixels"),
  bytes: z.number().int().describe("size of the stored file"),
});
export type Upload = z.infer<typeof UploadSchema>;

/** Where an upload is read: UPLOAD_PATH + name. */
export const UPLOAD_PATH = "/api/common/uploads/";

export const imageUpload = endpoint({
  data: UploadSchema,
  method: "POST",
  path: "/api/common/image_upload",
  auth: true,
  realAccount: true,
  tag: "uploads",
  summary:
    "Upload one image (multipart/form-data, field `file`): JPEG, PNG or WebP, recognised by its bytes, re-encoded without metadata",
  body: z.object({ file: z.unknown().describe("the image file (multipart/form-data)") }),
});
