import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type MockRow = RouterOutputs["mocks"]["list"]["mocks"][number];
export type Folder = RouterOutputs["folders"]["list"]["folders"][number];

/** Drag data type of mock ids dragged from the list onto a folder. */
export const DRAG_MOCKS = "application/x-polymock-mock-ids";
export const DRAG_FOLDER = "application/x-polymock-folder-id";
