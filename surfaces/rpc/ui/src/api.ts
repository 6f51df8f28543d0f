// The server's public RPC API, as any client calls it: Connect over fetch,
// binary protobuf, the bearer token of this tab (sessionStorage) in a header.
import { Code, ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import type { JsonObject } from "@bufbuild/protobuf";
import { NogginService } from "./gen/noggin/v1/noggin_pb";

const tokenKey = "noggin-token";

export const token = {
  get: (): string | null => sessionStorage.getItem(tokenKey),
  set: (t: string): void => sessionStorage.setItem(tokenKey, t),
  clear: (): void => sessionStorage.removeItem(tokenKey),
};

const bearer: Interceptor = (next) => async (req) => {
  const t = token.get();
  if (t) req.header.set("Authorization", "Bearer " + t);
  return next(req);
};

export const client = createClient(
  NogginService,
  createConnectTransport({ baseUrl: location.origin, useBinaryFormat: true, interceptors: [bearer] }),
);

/** isAuthError: the server wants a (valid) token. */
export function isAuthError(e: unknown): boolean {
  return ConnectError.from(e).code === Code.Unauthenticated;
}

/** Envelope is the canonical response of every verb (docs/envelope.md). */
export interface Envelope {
  status: "ok" | "error";
  verb: string | null;
  data?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  error?: { code: string; message: string };
}

/** call runs a verb with its MCP tool's arguments and answers the envelope. */
export async function call(verb: string, args: JsonObject): Promise<Envelope> {
  const res = await client.call({ verb, arguments: args });
  return JSON.parse(res.envelope) as Envelope;
}

/** message is the words to show for a failed call. */
export function message(e: unknown): string {
  return ConnectError.from(e).rawMessage;
}
