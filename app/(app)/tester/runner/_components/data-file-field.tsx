"use client";
// The run's iteration data: a CSV or JSON file read in the browser as text,
// checked with the server's parser, and previewed (row count, columns, first
// rows) so the user sees what each iteration's {{variables}} will be before
// running. The text is sent as it is; the server parses it again.
import { FileSpreadsheet, X } from "lucide-react";
import { useRef } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatBytes } from "@/components/tester/format";
import { cellText, type DataPreview, PREVIEW_ROWS, previewDataFile, tooLarge } from "./data-preview";

export interface DataFile {
  name: string;
  size: number;
  text: string;
  preview: DataPreview;
}

export interface DataFileFieldProps {
  value: DataFile | null;
  onChange: (file: DataFile | null) => void;
  /** A file that could not be read at all (too large, not text). */
  onReadError: (message: string) => void;
  readError: string | null;
  disabled?: boolean;
}

export function DataFileField({ value, onChange, onReadError, readError, disabled }: DataFileFieldProps) {
  const input = useRef<HTMLInputElement>(null);

  async function pick(file: File) {
    const large = tooLarge(file.size);
    if (large) {
      onChange(null);
      onReadError(large);
      return;
    }
    try {
      const text = await file.text();
      onChange({ name: file.name, size: file.size, text, preview: previewDataFile(text) });
    } catch {
      onChange(null);
      onReadError(`${file.name} could not be read`);
    }
  }

  const preview = value?.preview;
  return (
    <div className="flex flex-col gap-2">
      <span className="text-sm font-medium" id="runner-data-label">
        Data file
      </span>
      <div className="flex flex-wrap items-center gap-3 rounded-lg border border-dashed px-4 py-3 text-sm text-muted-foreground">
        <FileSpreadsheet className="size-5 shrink-0" aria-hidden />
        <input
          ref={input}
          type="file"
          accept=".csv,.json,text/csv,application/json"
          className="sr-only"
          aria-label="Data file"
          disabled={disabled}
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) void pick(f);
            e.target.value = "";
          }}
        />
        <Button type="button" variant="outline" size="sm" disabled={disabled} onClick={() => input.current?.click()} aria-describedby="runner-data-label">
          {value ? "Choose another file" : "Choose a data file"}
        </Button>
        {value ? (
          <>
            <span className="min-w-0 truncate">
              <span className="font-medium text-foreground">{value.name}</span> ({formatBytes(value.size)})
            </span>
            <Button type="button" variant="ghost" size="icon-sm" aria-label="Remove the data file" title="Remove the data file" disabled={disabled} onClick={() => onChange(null)}>
              <X aria-hidden />
            </Button>
          </>
        ) : (
          <span>Optional. CSV with a header row, or a JSON array of objects: one iteration per row, its columns as {"{{variables}}"}.</span>
        )}
      </div>
      {readError && !value ? <Alert variant="error">{readError}</Alert> : null}
      {preview && !preview.ok ? (
        <Alert variant="error" title="The run cannot use this file">
          {preview.message}
        </Alert>
      ) : null}
      {preview?.ok ? (
        <div className="flex flex-col gap-1.5">
          <p className="text-xs text-muted-foreground" aria-live="polite">
            {preview.format.toUpperCase()} · <span className="font-medium text-foreground">{preview.rowCount === 1 ? "1 row" : `${preview.rowCount} rows`}</span>
            {preview.rowCount === 0 ? " — the run does one iteration without data" : preview.rowCount > PREVIEW_ROWS ? ` — the first ${PREVIEW_ROWS} below` : null}
          </p>
          {preview.rowCount > 0 ? (
            <div className="max-h-56 overflow-auto rounded-md border">
              <Table aria-label="Data file preview" className="text-xs">
                <TableHeader>
                  <TableRow>
                    <TableHead className="w-10">#</TableHead>
                    {preview.columns.map((c) => (
                      <TableHead key={c} className="font-mono">
                        {c}
                      </TableHead>
                    ))}
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {preview.rows.map((row, i) => (
                    <TableRow key={i}>
                      <TableCell className="text-muted-foreground tabular-nums">{i + 1}</TableCell>
                      {preview.columns.map((c) => (
                        <TableCell key={c} className="max-w-60 truncate font-mono" title={cellText(row[c])}>
                          {cellText(row[c])}
                        </TableCell>
                      ))}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
