import { toast } from "sonner";
import { errorMessage } from "./api-error";

/** The onError of every mutation that has no form to put field errors on: the API's message in a toast. */
export function toastError(err: unknown) {
  toast.error(errorMessage(err));
}
