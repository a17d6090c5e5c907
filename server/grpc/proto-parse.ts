// Parses a namespace's uploaded .proto files together: imports resolve among
// the files themselves and protobufjs's bundled well-known types
// (google/protobuf/*.proto); a file that does not parse, an import that
// names nothing, or a type that resolves to nothing is a ProtoError with the
// file and, where the parser knows it, the line and column.
import protobuf from "protobufjs";

export interface ProtoFile {
  name: string;
  content: string;
}

export interface ProtoMethod {
  name: string;
  requestType: string;
  responseType: string;
  requestStream: boolean;
  responseStream: boolean;
}

export interface ProtoService {
  /** Fully qualified, without the leading dot: "acme.Greeter". */
  name: string;
  file: string;
  methods: ProtoMethod[];
}

/** The streaming kind, spelled as a mock's grpc.methodType. */
export function methodKind(m: Pick<ProtoMethod, "requestStream" | "responseStream">): "unary" | "server-stream" | "client-stream" | "bidirectional" {
  if (m.requestStream && m.responseStream) return "bidirectional";
  if (m.requestStream) return "client-stream";
  return m.responseStream ? "server-stream" : "unary";
}

export class ProtoError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
  }
}

const WELL_KNOWN = protobuf.common as unknown as Record<string, protobuf.INamespace | undefined> & ((name: string, json: unknown) => void);

function wellKnown(name: string): protobuf.INamespace | undefined {
  // protobufjs keys its bundled files both as "google/protobuf/x.proto" and "x.proto".
  return name.startsWith("google/protobuf/") ? WELL_KNOWN[name] : undefined;
}

/**
 * protobufjs reports "illegal token 'x' (line N)" without a column; the
 * column is where the offending token first appears on that line (1 when the
 * token is not on it, e.g. at the end of input).
 */
function located(err: Error, file: string, content: string): ProtoError {
  const m = /\(line (\d+)\)\s*$/.exec(err.message);
  if (!m) return new ProtoError(`${file}: ${err.message}`, file);
  const line = Number(m[1]);
  const token = /'([^']*)'/.exec(err.message)?.[1];
  const text = content.split(/\r?\n/)[line - 1] ?? "";
  const at = token ? text.indexOf(token) : -1;
  const column = at >= 0 ? at + 1 : 1;
  const reason = err.message.slice(0, m.index).trim();
  return new ProtoError(`${file}:${line}:${column}: ${reason}`, file, line, column);
}

/** The resolved root of all the files; throws ProtoError. */
export function parseProtos(files: ProtoFile[]): protobuf.Root {
  const byName = new Map(files.map((f) => [f.name, f]));
  const root = new protobuf.Root();
  const done = new Set<string>();
  const visit = (file: ProtoFile) => {
    if (done.has(file.name)) return;
    done.add(file.name);
    let parsed: protobuf.IParserResult;
    try {
      parsed = protobuf.parse(file.content, root, { keepCase: true, alternateCommentMode: true });
    } catch (err) {
      throw located(err as Error, file.name, file.content);
    }
    for (const imp of [...(parsed.imports ?? []), ...(parsed.weakImports ?? [])]) {
      const uploaded = byName.get(imp);
      if (uploaded) {
        visit(uploaded);
        continue;
      }
      const known = wellKnown(imp);
      if (!known) throw new ProtoError(`${file.name}: import "${imp}" is neither among the uploaded files nor a well-known type (google/protobuf/*.proto)`, file.name);
      if (!done.has(imp)) {
        done.add(imp);
        root.addJSON(known.nested ?? {});
      }
    }
  };
  for (const f of files) visit(f);
  try {
    root.resolveAll();
  } catch (err) {
    throw new ProtoError(`Unresolved reference: ${(err as Error).message}`, files[0]?.name ?? "");
  }
  return root;
}

/** Services defined by the files named, with their methods. */
export function servicesOf(root: protobuf.Root, fileOf: (svc: protobuf.Service) => string | undefined): ProtoService[] {
  const out: ProtoService[] = [];
  const walk = (ns: protobuf.NamespaceBase) => {
    for (const obj of ns.nestedArray) {
      if (obj instanceof protobuf.Service) {
        const file = fileOf(obj);
        if (file === undefined) continue;
        out.push({
          name: obj.fullName.replace(/^\./, ""),
          file,
          methods: obj.methodsArray.map((m) => ({
            name: m.name,
            requestType: (m.resolvedRequestType?.fullName ?? m.requestType).replace(/^\./, ""),
            responseType: (m.resolvedResponseType?.fullName ?? m.responseType).replace(/^\./, ""),
            requestStream: Boolean(m.requestStream),
            responseStream: Boolean(m.responseStream),
          })),
        });
      } else if (obj instanceof protobuf.Namespace) walk(obj);
    }
  };
  walk(root);
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Each file's own services: parsing it alone with its imports tells which services it defines. */
export function servicesByFile(files: ProtoFile[]): Map<string, ProtoService[]> {
  const root = parseProtos(files);
  const owner = new Map<string, string>();
  for (const f of files) {
    const own = protobuf.parse(f.content, new protobuf.Root(), { keepCase: true }).root;
    const names: string[] = [];
    const walk = (ns: protobuf.NamespaceBase) => {
      for (const obj of ns.nestedArray) {
        if (obj instanceof protobuf.Service) names.push(obj.fullName);
        else if (obj instanceof protobuf.Namespace) walk(obj);
      }
    };
    walk(own);
    for (const n of names) owner.set(n, f.name);
  }
  const all = servicesOf(root, (svc) => owner.get(svc.fullName));
  const out = new Map<string, ProtoService[]>(files.map((f) => [f.name, []]));
  for (const s of all) out.get(s.file)?.push(s);
  return out;
}
