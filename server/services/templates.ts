// Template files of a namespace: files that mocks read (valueFromFile, file
// templates). The compiled mock index of a namespace carries its template
// files (server/serving/mock-index.ts), so every change notifies "mocks_changed" and each
// process rebuilds that namespace's index.
import { TEMPLATE_MAX_BYTES, type SavedTemplate, type TemplateList, type TemplateView } from "@/server/contracts/file-endpoints";
import { db } from "@/server/db/client";
import { notifyMocksChanged } from "@/server/db/notify";
import { AppError, errors } from "@/server/errors";
import type { NamespaceScope } from "./namespace-access";

export interface TemplateUpload {
  bytes: Uint8Array;
  contentType: string;
}

export interface TemplateContent {
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

function view(row: { fileName: string; size: number; contentType: string; updatedAt: Date }): TemplateView {
  return { fileName: row.fileName, size: row.size, contentType: row.contentType, updatedAt: row.updatedAt.toISOString() };
}

export async function listTemplates(ns: NamespaceScope): Promise<TemplateList> {
  const rows = await db().templateFile.findMany({
    where: { namespaceId: ns.id },
    orderBy: { fileName: "asc" },
    select: { fileName: true, size: true, contentType: true, updatedAt: true },
  });
  return { templates: rows.map(view), count: rows.length };
}

export async function readTemplate(ns: NamespaceScope, fileName: string): Promise<TemplateContent> {
  const row = await db().templateFile.findUnique({
    where: { namespaceId_fileName: { namespaceId: ns.id, fileName } },
    select: { fileName: true, contentType: true, content: true },
  });
  if (!row) throw errors.notFound(`Template file '${fileName}'`);
  return { fileName: row.fileName, contentType: row.contentType, bytes: row.content };
}

/** Creates or replaces a template file; `fileName` is already checked against TemplateFileName. */
export async function saveTemplate(ns: NamespaceScope, fileName: string, upload: TemplateUpload): Promise<SavedTemplate> {
  if (upload.bytes.byteLength > TEMPLATE_MAX_BYTES) {
    throw new AppError("payload_too_large", `A template file may be at most ${TEMPLATE_MAX_BYTES} bytes`, { status: 413, details: { limitBytes: TEMPLATE_MAX_BYTES } });
  }
  const key = { namespaceId_fileName: { namespaceId: ns.id, fileName } };
  const data = { content: new Uint8Array(upload.bytes), contentType: upload.contentType, size: upload.bytes.byteLength };
  const { existed, row } = await db().$transaction(async (tx) => {
    // Only to answer 201 or 200; the upsert itself is what keeps concurrent uploads safe.
    const existed = (await tx.templateFile.findUnique({ where: key, select: { fileName: true } })) !== null;
    const row = await tx.templateFile.upsert({
      where: key,
      create: { namespaceId: ns.id, fileName, ...data },
      update: data,
      select: { fileName: true, size: true, contentType: true, updatedAt: true },
    });
    return { existed, row };
  });
  await notifyMocksChanged(ns.id);
  return { ...view(row), created: !existed };
}

export async function deleteTemplate(ns: NamespaceScope, fileName: string): Promise<{ ok: true }> {
  const { count } = await db().templateFile.deleteMany({ where: { namespaceId: ns.id, fileName } });
  if (count === 0) throw errors.notFound(`Template file '${fileName}'`);
  await notifyMocksChanged(ns.id);
  return { ok: true };
}
