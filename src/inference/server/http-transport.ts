import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { EndpointRequestError } from "../errors/index.js";

/** How every request of a client reaches its servers. */
export interface HttpTransport {
  /** Bearer token for `Authorization`. */
  apiKey?: string;
  /** PEM certificate authorities to trust for https. */
  ca?: Buffer;
  rejectUnauthorized: boolean;
  timeoutMilliseconds: number;
}

export interface JsonRequest {
  method: "GET" | "POST";
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  /** Overrides the transport's timeout (a model load takes longer than a completion). */
  timeoutMilliseconds?: number;
}

/** One JSON request; a non-2xx answer, a timeout or a broken connection is an EndpointRequestError naming the endpoint. */
export async function requestJson(endpoint: string, path: string, transport: HttpTransport, options: JsonRequest): Promise<unknown> {
  const response = await open(endpoint, path, transport, options);
  const text = await readAll(endpoint, response);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new EndpointRequestError(endpoint, `${path} answered with something other than JSON: ${text.slice(0, 200)}`, false, response.statusCode);
  }
}

/** A request whose answer matters only by its status (a health check: vLLM's `/health` has an empty body). */
export async function requestOk(endpoint: string, path: string, transport: HttpTransport, options: JsonRequest): Promise<void> {
  await readAll(endpoint, await open(endpoint, path, transport, options));
}

async function open(endpoint: string, path: string, transport: HttpTransport, options: JsonRequest): Promise<IncomingMessage> {
  const url = new URL(path, endpoint.endsWith("/") ? endpoint : `${endpoint}/`);
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (transport.apiKey !== undefined) headers.authorization = `Bearer ${transport.apiKey}`;
  const timeout = AbortSignal.timeout(options.timeoutMilliseconds ?? transport.timeoutMilliseconds);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]);
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const request = send(url, {
      method: options.method,
      headers,
      signal,
      // A connection per request: llama-server's router closes a kept-alive connection after proxying one request, and
      // Node's default agent would send the next request down it (ECONNRESET). A completion outlasts a handshake by far.
      agent: false,
      ...(url.protocol === "https:" && { rejectUnauthorized: transport.rejectUnauthorized, ...(transport.ca !== undefined && { ca: transport.ca }) }),
    });
    request.on("response", resolve);
    request.on("error", (error) => reject(asEndpointError(endpoint, path, timeout.aborted ? new Error("timed out") : error)));
    request.end(body);
  });
  const status = response.statusCode ?? 0;
  if (status >= 200 && status < 300) return response;
  const text = await readAll(endpoint, response).catch(() => "");
  throw new EndpointRequestError(endpoint, `${options.method} ${path} answered ${status}: ${serverMessage(text)}${hint(status)}`, status >= 500 || status === 429 || status === 408, status);
}

async function readAll(endpoint: string, response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of response) chunks.push(chunk as Buffer);
  } catch (error) {
    throw asEndpointError(endpoint, "response", error);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** llama-server and vLLM both answer errors as `{error: {message}}`; anything else is shown as it came. */
function serverMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === "string" ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof message === "string") return message;
  } catch {
    // Not JSON: the raw text below.
  }
  return text.slice(0, 300) || "(no body)";
}

function hint(status: number): string {
  if (status === 401 || status === 403) return " (check the API key: --api-key-env names the variable that holds it)";
  return "";
}

function asEndpointError(endpoint: string, path: string, error: unknown): EndpointRequestError {
  if (error instanceof EndpointRequestError) return error;
  const reason = error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error);
  // A refused or reset connection, or a timeout: another endpoint (or this one later) may answer.
  return new EndpointRequestError(endpoint, `${path} failed: ${reason === "ABORT_ERR" ? "timed out or aborted" : reason}`, true);
}
