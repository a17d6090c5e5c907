// Files picked in the browser for form-data parts and binary bodies, read to
// base64 (the request contract's `contentBase64`), and base64 response bodies
// offered back as a download.
import { MAX_REQUEST_BODY_CHARS } from "@/server/contracts/tester-request";

export interface PickedFile {
  fileName: string;
  contentType: string;
  contentBase64: string;
  size: number;
}

/** Largest file whose base64 still fits in a saved request. */
export const MAX_FILE_BYTES = Math.floor((MAX_REQUEST_BODY_CHARS * 3) / 4);

export function readFileAsBase64(file: File): Promise<PickedFile> {
  if (file.size > MAX_FILE_BYTES) return Promise.reject(new Error(`${file.name} is larger than ${Math.floor(MAX_FILE_BYTES / (1024 * 1024))} MB, the most a saved request can hold`));
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error ?? new Error(`${file.name} could not be read`));
    reader.onload = () => {
      const url = String(reader.result);
      resolve({ fileName: file.name, contentType: file.type || "application/octet-stream", contentBase64: url.slice(url.indexOf(",") + 1), size: file.size });
    };
    reader.readAsDataURL(file);
  });
}

export function base64ToBlob(base64: string, contentType: string): Blob {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return new Blob([bytes], { type: contentType });
}

/** Saves bytes (base64) or text as a file through a temporary link. */
export function downloadBody(body: string, encoding: "utf8" | "base64", fileName: string, contentType: string) {
  const blob = encoding === "base64" ? base64ToBlob(body, contentType) : new Blob([body], { type: contentType });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
