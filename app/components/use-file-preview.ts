/**
 * A preview of the image chosen in a file input, for the upload forms (verification, deposit
 * proof). The input works without JavaScript; with it, the chosen file is shown as an image. A file
 * picked before the page's scripts ran (a slow network: the form is usable as soon as its HTML is)
 * has its preview once they do, since the input's change event was missed then.
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from "react";

export function useFilePreview(): {
  preview: string | null;
  inputRef: RefObject<HTMLInputElement>;
  onFiles: (files: FileList | null) => void;
} {
  const [preview, setPreview] = useState<string | null>(null);
  const url = useRef<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  const onFiles = useCallback((files: FileList | null) => {
    if (url.current) URL.revokeObjectURL(url.current);
    const f = files?.[0];
    url.current = f ? URL.createObjectURL(f) : null;
    setPreview(url.current);
  }, []);

  useEffect(() => {
    const picked = inputRef.current?.files ?? null;
    if (picked && picked.length > 0) onFiles(picked);
    return () => {
      if (url.current) URL.revokeObjectURL(url.current);
      url.current = null;
    };
  }, [onFiles]);

  return { preview, inputRef, onFiles };
}
