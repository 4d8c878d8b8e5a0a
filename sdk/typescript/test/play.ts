/**
 * Two players play one game of `kind` to the end with the TypeScript SDK only, each driven by
 * its account event stream (tests/sdk/test_typescript_sdk.py runs it against a live server):
 *
 *   node dist/test/play.js <base-url> <token-a> <token-b> <kind>
 *
 * Prints one JSON line: the final status, the number of actions, the places, and each player's
 * opponents as its `game_started` event's typed `data` names them.
 */
import { CardGames, type Action, type EventOf, type Game, turnActions } from "../src/index.js";

const [baseUrl, tokenA, tokenB, kind] = process.argv.slice(2);
const TIME_LIMIT_MS = 240_000;

function choose(view: Game): Action | undefined {
  const actions = turnActions(view).filter((a) => !("template" in a));
  if (actions.length === 0) return undefined;
  const finishing = actions.filter((a) => a.type === "knock" || a.type === "big_gin");
  if (finishing.length > 0) return finishing[finishing.length - 1];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const table = view.table as any;
  const discards = actions.filter((a) => a.type === "discard") as Array<Action & { card: string }>;
  if (discards.length > 0) {
    const value = new Map<string, number>(table.hand.map((c: { id: string; value: number }) => [c.id, c.value]));
    const heavy = discards.filter((a) => table.deadwood.includes(a.card));
    return (heavy.length ? heavy : discards).reduce((a, b) => ((value.get(b.card) ?? 0) > (value.get(a.card) ?? 0) ? b : a));
  }
  const plays = actions.filter((a) => a.type === "play" || a.type === "play_drawn");
  const chosen = { ...(plays[0] ?? actions[0]) } as Action & { uno?: boolean };
  if ("uno" in chosen && Array.isArray(table.hand) && table.hand.length === 2) chosen.uno = true;
  return chosen;
}

interface Seated {
  actions: number;
  opponents: string[];
}

async function seat(player: CardGames, gameId: string, after: number, stop: AbortSignal): Promise<Seated> {
  let actions = 0;
  let started: EventOf<"game_started"> | undefined;
  const play = async (): Promise<boolean> => {
    let view = await player.game(gameId);
    for (let action = choose(view); action; action = choose(view)) {
      view = await player.act(gameId, action, view.version);
      actions += 1;
    }
    return view.status === "finished";
  };
  if (await play()) return { actions, opponents: [] };
  for await (const event of player.events(after, stop)) {
    if (event.game !== gameId) continue;
    if (event.kind === "game_started") started = event; // narrowed on kind: its data is typed
    if (event.kind === "game_started" || event.kind === "your_turn") {
      if (await play()) break;
    }
    if (event.kind === "match_over") break;
  }
  return { actions, opponents: started?.data.opponents ?? [] };
}

async function main(): Promise<void> {
  const [a, b] = [new CardGames(baseUrl, tokenA), new CardGames(baseUrl, tokenB)];
  const afters = [await a.latestEventId(), await b.latestEventId()];
  const created = await a.api.POST("/api/v1/games/", {
    body: { game: kind as "gin_rummy", max_players: 2, target_score: 0, visibility: "private" },
  });
  if (!created.data) throw new Error(JSON.stringify(created.error));
  const lobby = created.data;
  const joined = await b.api.POST("/api/v1/games/join/", { body: { invite_code: lobby.invite_code! } });
  if (joined.data?.status !== "active") throw new Error(JSON.stringify(joined.error));
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), TIME_LIMIT_MS);
  const seats = await Promise.all([seat(a, lobby.id, afters[0], stop.signal), seat(b, lobby.id, afters[1], stop.signal)]);
  clearTimeout(timer);
  stop.abort();
  const final = await a.game(lobby.id);
  const places = final.players.map((p) => p.place);
  const actions = seats[0].actions + seats[1].actions;
  const opponents = seats.map((s) => s.opponents);
  console.log(JSON.stringify({ status: final.status, actions, places, game: final.game, opponents }));
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
