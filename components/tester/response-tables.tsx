// A response's headers (in arrival order, repeats kept) and cookies as
// tables, and the headers that were actually sent, for comparison.
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { ExecutedResponse, SentRequest } from "@/server/contracts/tester-execution";
import { formatDateTime } from "@/components/lib/format";

function HeaderTable({ label, headers }: { label: string; headers: readonly { key: string; value: string }[] }) {
  return (
    <div className="rounded-md border">
      <Table aria-label={label} className="table-fixed">
        <TableHeader>
          <TableRow>
            <TableHead className="w-1/3">Name</TableHead>
            <TableHead>Value</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {headers.map((h, i) => (
            <TableRow key={i}>
              <TableCell className="py-1.5 align-top font-mono text-xs font-medium break-words">{h.key}</TableCell>
              <TableCell className="py-1.5 font-mono text-xs break-all">{h.value}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

export function ResponseHeaders({ response, request }: { response: ExecutedResponse; request?: SentRequest | null }) {
  return (
    <div className="flex flex-col gap-4">
      {response.headers.length ? <HeaderTable label="Response headers" headers={response.headers} /> : <p className="text-sm text-muted-foreground">The response has no headers.</p>}
      {request ? (
        <details className="group rounded-md border px-3 py-2">
          <summary className="cursor-pointer text-sm font-medium outline-none focus-visible:ring-2 focus-visible:ring-ring">
            Request as sent: <span className="font-mono text-xs">{request.method}</span> <span className="font-mono text-xs break-all text-muted-foreground">{request.url}</span>
          </summary>
          <div className="mt-2">
            <HeaderTable label="Request headers as sent" headers={request.headers} />
          </div>
        </details>
      ) : null}
    </div>
  );
}

export function ResponseCookies({ cookies }: { cookies: ExecutedResponse["cookies"] }) {
  if (!cookies.length) return <p className="rounded-md border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">This response set no cookies.</p>;
  return (
    <div className="rounded-md border">
      <Table aria-label="Cookies">
        <TableHeader>
          <TableRow>
            <TableHead>Name</TableHead>
            <TableHead>Value</TableHead>
            <TableHead>Domain</TableHead>
            <TableHead>Path</TableHead>
            <TableHead>Expires</TableHead>
            <TableHead>HttpOnly</TableHead>
            <TableHead>Secure</TableHead>
            <TableHead>SameSite</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {cookies.map((c, i) => (
            <TableRow key={i} className="font-mono text-xs">
              <TableCell className="py-1.5 font-medium">{c.name}</TableCell>
              <TableCell className="max-w-64 py-1.5 break-all">{c.value}</TableCell>
              <TableCell className="py-1.5">{c.domain ?? "—"}</TableCell>
              <TableCell className="py-1.5">{c.path ?? "—"}</TableCell>
              <TableCell className="py-1.5 font-sans">{c.expires ? formatDateTime(c.expires) : "Session"}</TableCell>
              <TableCell className="py-1.5">{c.httpOnly ? "yes" : "no"}</TableCell>
              <TableCell className="py-1.5">{c.secure ? "yes" : "no"}</TableCell>
              <TableCell className="py-1.5">{c.sameSite ?? "—"}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
