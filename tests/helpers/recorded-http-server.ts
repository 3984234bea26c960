import { createServer, type IncomingMessage, type RequestListener, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";

/** One request the server received, its body parsed as JSON when it was JSON. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: unknown;
}

export interface RecordedAnswer {
  status?: number;
  /** Milliseconds to wait before answering (a slow generation). */
  delayMilliseconds?: number;
  /** Sent as JSON; a string is sent as it is. */
  body?: unknown;
}

/** Answers a request from the recording (or computes the answer from it); undefined is a 404. */
export type Recording = (request: ReceivedRequest) => RecordedAnswer | undefined;

/** A local HTTP server replaying recorded answers, for protocol tests of servers that cannot run here. */
export interface RecordedHttpServer {
  url: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

/** Serves the recording over http, or over https with `tls`'s PEM key and certificate. */
export async function startRecordedHttpServer(recording: Recording, tls?: { key: string; cert: string }): Promise<RecordedHttpServer> {
  const received: ReceivedRequest[] = [];
  const listener: RequestListener = (request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text;
      try {
        body = text === "" ? undefined : (JSON.parse(text) as unknown);
      } catch {
        // Kept as text.
      }
      const entry = { method: request.method ?? "GET", path: request.url ?? "/", headers: request.headers, body };
      received.push(entry);
      const answer = recording(entry) ?? { status: 404, body: { error: { message: `no recording for ${entry.method} ${entry.path}` } } };
      setTimeout(() => {
        response.statusCode = answer.status ?? 200;
        if (answer.body === undefined) return response.end();
        response.setHeader("content-type", typeof answer.body === "string" ? "text/plain" : "application/json");
        response.end(typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body));
      }, answer.delayMilliseconds ?? 0);
    });
  };
  const server: Server = tls === undefined ? createServer(listener) : createHttpsServer(tls, listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("the recorded server has no port");
  return {
    url: `${tls === undefined ? "http" : "https"}://127.0.0.1:${address.port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
