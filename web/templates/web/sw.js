/* Uno All Wild service worker, served at /sw.js (scope: the whole site).
 *
 * - Keeps the app shell (the page, its modules, styles, strings) so the client starts without a
 *   network, and serves fresh files first when there is one.
 * - Never touches the API: /api/ requests go straight to the network, uncached.
 * - Shows Web Push notifications (payload: docs/notifications.md, "message.payload()") and opens
 *   the right game when one is tapped.
 */
"use strict";

const VERSION = "{{ version }}";
const CACHE = "uaw-shell-" + VERSION;
const SHELL = {{ shell|safe }};

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

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
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
