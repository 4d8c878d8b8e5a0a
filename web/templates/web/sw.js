/* Uno All Wild service worker, served at /sw.js (scope: the whole site).
 *
 * - Keeps the app shell (the page, its modules, styles, strings) so the client starts without a
 *   network, and serves fresh files first when there is one.
 * - Keeps the last answer to the reads a player needs offline (who am I, my games, each game's
 *   view: DATA_PATHS) in a cache of its own, network first. Offline, the kept answer is served
 *   with an `X-Cached-At` header (when it was last confirmed by the server), so the page can say
 *   it is showing an old state and when from. Everything else under /api/ (actions, the live
 *   stream, the log) goes straight to the network, uncached.
 * - Shows Web Push notifications (payload: docs/notifications.md, "message.payload()") and opens
 *   the right game when one is tapped.
 */
"use strict";

const VERSION = "{{ version }}";
const CACHE = "uaw-shell-" + VERSION;
const SHELL = {{ shell|safe }};
// Not versioned: a new client must still find the state the old one kept. The page empties it
// when the player signs in or out (api.js), so one player never sees another's games.
const DATA = "uaw-data";
const DATA_PATHS = [/^\/api\/v1\/me\/$/, /^\/api\/v1\/games\/$/, /^\/api\/v1\/games\/[0-9a-f-]{36}\/$/];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      // One missing file must not stop the worker from installing: cache what can be cached.
      .then((cache) => Promise.allSettled(SHELL.map((url) => cache.add(url))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((k) => k.startsWith("uaw-shell-") && k !== CACHE).map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

/** A copy of `response` (its body read) with `X-Cached-At` set to `at`. */
async function stamped(response, at) {
  const headers = new Headers(response.headers);
  headers.set("X-Cached-At", at);
  return new Response(await response.blob(), { status: 200, statusText: "OK", headers });
}

/** Keep (or re-stamp, on a 304) what the network answered for `key`. */
async function keep(key, response) {
  const now = new Date().toISOString();
  const cache = await caches.open(DATA);
  if (response.status === 200) {
    await cache.put(key, await stamped(response, now));
  } else if (response.status === 304) {
    // The kept copy is still the state: it was confirmed now.
    const hit = await cache.match(key);
    if (hit) await cache.put(key, await stamped(hit, now));
  } else if (response.status === 401) {
    await caches.delete(DATA);
  }
}

/**
 * One of DATA_PATHS: the network's answer, kept behind the page's back (the page does not wait
 * for the cache: a move by another player shows as fast as without the worker); offline, the
 * kept one.
 */
async function dataFetch(event) {
  const key = event.request.url;
  let response;
  try {
    response = await fetch(event.request);
  } catch (error) {
    const hit = await caches.open(DATA).then((cache) => cache.match(key));
    if (hit) return hit;
    throw error;
  }
  event.waitUntil(keep(key, response.clone()).catch(() => {}));
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (DATA_PATHS.some((pattern) => pattern.test(url.pathname)) && !url.search) {
    event.respondWith(dataFetch(event));
    return;
  }
  if (url.pathname.startsWith("/api/")) return;
  if (request.mode === "navigate") {
    // The page: the network's when it answers, else the kept shell (every route is one page).
    event.respondWith(
      fetch(request).catch(() =>
        caches.match("/", { cacheName: CACHE }).then((hit) => hit || Response.error()),
      ),
    );
    return;
  }
  if (url.pathname.startsWith("/static/web/")) {
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok) {
            const copy = response.clone();
            caches.open(CACHE).then((cache) => cache.put(request, copy));
          }
          return response;
        })
        .catch(() => caches.match(request).then((hit) => hit || Response.error())),
    );
  }
});

/** The client URL a notification opens: its `url`, always on this site. */
function targetUrl(data) {
  const fallback = "/games";
  let url;
  try {
    url = new URL(data && data.url ? data.url : fallback, self.location.origin);
  } catch (_) {
    url = new URL(fallback, self.location.origin);
  }
  // A link made with another FRONTEND_URL host still opens here: keep only the path.
  return url.pathname + url.search + url.hash;
}

self.addEventListener("push", (event) => {
  let data = {};
  if (event.data) {
    try {
      data = event.data.json();
    } catch (_) {
      data = { body: event.data.text() };
    }
  }
  const title = data.title || "Uno All Wild";
  const options = {
    body: data.body || "",
    // One notification per game on the device: a newer "your turn" of a game replaces the
    // older one (the server's Web Push Topic), and tells the player again.
    tag: data.topic || data.event_id || undefined,
    renotify: Boolean(data.topic),
    lang: data.language || undefined,
    icon: "{{ icon }}",
    badge: "{{ icon }}",
    data: { url: targetUrl(data), event_id: data.event_id || null, kind: data.kind || null },
  };
  event.waitUntil(self.registration.showNotification(title, options));
});

/** Open (or bring forward) the client on the notification's page. */
async function openFromNotification(notification) {
  const path = (notification.data && notification.data.url) || "/games";
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const client of windows) {
    if (new URL(client.url).origin !== self.location.origin) continue;
    // The page's router moves to the game without reloading (app.js listens for this).
    client.postMessage({ type: "open", url: path });
    try {
      await client.focus();
    } catch (_) {
      // Focusing needs the user's tap; the page has moved on either way.
    }
    return client;
  }
  return self.clients.openWindow(path);
}
self.openFromNotification = openFromNotification;

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openFromNotification(event.notification));
});
