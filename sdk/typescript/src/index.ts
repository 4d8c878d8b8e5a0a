/**
 * The TypeScript SDK's hand-written layer over openapi-fetch and the types openapi-typescript
 * generates from openapi.yaml (src/schema.d.ts: `python sdk/generate.py`). Use `api` (an
 * openapi-fetch client, typed by path) for every operation; this adds only what a generator
 * cannot know: `act` (expected_version, an Idempotency-Key, retried with the same key) and
 * `events` (the account event stream, resumed from the last id after a disconnect).
 */
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./schema.js";
import { ACCOUNT_EVENT_KINDS } from "./schema-stamp.js";
export { ACCOUNT_EVENT_KINDS, OPENAPI_SHA256 } from "./schema-stamp.js";

export type Schemas = components["schemas"];
export type Game = Schemas["Game"];
/** An event of the account stream: the schema's union of one shape per kind, discriminated by
 * `kind`, so `if (event.kind === "challenged")` narrows `event.data` to `ChallengedData`.
 * (`events()` yields only the kinds this build knows, `ACCOUNT_EVENT_KINDS`: an event of a newer
 * kind is skipped, as the Python SDK's `parse_event` skips it.) */
export type AccountEvent = Schemas["AccountEvent"];
/** The event of one kind: `EventOf<"your_turn">`. */
export type EventOf<K extends AccountEvent["kind"]> = Extract<AccountEvent, { kind: K }>;
export type Action = Schemas["ActionRequest"];

/** One line of the stream as sent: an event of any kind, a newer one too, or its end. */
interface StreamedEvent {
  id: number;
  kind: string;
}

const KNOWN_KINDS: ReadonlySet<string> = new Set(ACCOUNT_EVENT_KINDS);

/** Actions any seat may take out of turn (Uno's "uno" and "catch"). */
export const FREE_ACTIONS = new Set(["uno", "catch"]);

/** A refusal: the HTTP status and the stable `code` to branch on. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(`${status} ${code}: ${message}`);
  }

  static from(status: number, body: unknown): ApiError {
    const error = (body as { error?: { code?: string; message?: string; details?: object } })?.error;
    return new ApiError(status, error?.code ?? "unexpected_response", error?.message ?? "", error?.details as Record<string, unknown>);
  }
}

/** The value of an openapi-fetch answer, or ApiError. */
export function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (!result.response.ok || result.data === undefined) {
    throw ApiError.from(result.response.status, result.error);
  }
  return result.data;
}

export class CardGames {
  readonly api: Client<paths>;

  constructor(
    readonly baseUrl: string,
    private readonly token: string,
  ) {
    this.api = createClient<paths>({
      baseUrl: baseUrl.replace(/\/$/, ""),
      headers: { Authorization: `Bearer ${token}` },
    });
  }

  async game(gameId: string): Promise<Game> {
    return ok(await this.api.GET("/api/v1/games/{game_id}/", { params: { path: { game_id: gameId } } }));
  }

  /** Take `action` chosen at `expectedVersion`; a network failure is retried with the same key,
   * so the action is never applied twice. 409 version_conflict: read again, choose again. */
  async act(gameId: string, action: Action, expectedVersion: number, key: string = crypto.randomUUID(), retries = 2): Promise<Game> {
    const body = { ...action, expected_version: expectedVersion } as Action;
    for (let attempt = 0; ; attempt++) {
      try {
        return ok(
          await this.api.POST("/api/v1/games/{game_id}/actions/", {
            params: { path: { game_id: gameId }, header: { "Idempotency-Key": key } },
            body,
          }),
        );
      } catch (error) {
        if (error instanceof ApiError || attempt >= retries) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500 * (attempt + 1)));
      }
    }
  }

  /** The newest event's id: stream after it for what happens from now on. */
  async latestEventId(): Promise<number> {
    const page = ok(await this.api.GET("/api/v1/games/live/stream/", { params: { query: { format: "json" } } }));
    return (page as Schemas["AccountEventPage"]).next_after;
  }

  /** The account's events in order, each once, from after `after` (default: from now on);
   * reconnects and resumes from the last id when the connection drops or the stream's hour
   * ends. A revoked token throws ApiError 401. Break out of the loop to stop. */
  async *events(after?: number, signal?: AbortSignal): AsyncGenerator<AccountEvent> {
    let last = after ?? (await this.latestEventId());
    while (!signal?.aborted) {
      try {
        for await (const data of this.streamOnce(last, signal)) {
          last = data.id;
          if (KNOWN_KINDS.has(data.kind)) yield data as AccountEvent;
        }
      } catch (error) {
        if (error instanceof ApiError || signal?.aborted) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  private async *streamOnce(after: number, signal?: AbortSignal): AsyncGenerator<StreamedEvent> {
    const url = `${this.baseUrl.replace(/\/$/, "")}/api/v1/games/live/stream/?format=ndjson&after=${after}`;
    const response = await fetch(url, { headers: { Authorization: `Bearer ${this.token}` }, signal });
    if (!response.ok || !response.body) {
      throw ApiError.from(response.status, await response.json().catch(() => null));
    }
    const decoder = new TextDecoder();
    let buffered = "";
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true });
      let newline: number;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        if (!line) continue; // a keep-alive
        const data = JSON.parse(line) as StreamedEvent & { reason?: string };
        if (data.kind === "end") {
          if (data.reason === "authentication_failed") {
            throw new ApiError(401, "authentication_failed", "The token was revoked.");
          }
          return; // the stream's time is up: the caller reconnects
        }
        yield data;
      }
    }
  }
}

/** The listed actions of `view` that are a turn of one's own. */
export function turnActions(view: Game): Action[] {
  const legal = (view.table?.legal_actions ?? []) as Action[];
  return legal.filter((action) => !FREE_ACTIONS.has(action.type));
}
