// The service worker and Web Push.
//
// The worker (/sw.js) is registered on every visit: it keeps the app shell for offline starts and
// shows push notifications; tapping one opens its game (the worker posts {type: "open", url} to
// an open page, or opens a new one).
//
// Subscribing needs the server's VAPID public key and a place to send the subscription. Both
// are looked up under /api/v1/notifications/webpush/; a server without them answers 404 and the
// settings screen says push is not available there.

import { api } from "./api.js";

export const PUSH_KEY_PATH = "notifications/webpush/key/";
export const PUSH_SUBSCRIPTIONS_PATH = "notifications/webpush/subscriptions/";

export function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

export async function registerWorker(app) {
  if (!("serviceWorker" in navigator)) return null;
  navigator.serviceWorker.addEventListener("message", (event) => {
    const message = event.data || {};
    if (message.type === "open" && typeof message.url === "string") {
      app.navigate(message.url);
    }
  });
  try {
    return await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  } catch (_) {
    return null;
  }
}

/** The server's VAPID key, or null when this server offers no Web Push. */
export async function serverKey() {
  try {
    const data = await api.get(PUSH_KEY_PATH);
    return data && (data.public_key || data.key || data.vapid_public_key || null);
  } catch (error) {
    if (error.status === 404) return null;
    throw error;
  }
}

function keyBytes(base64url) {
  const padded = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(padded + "=".repeat((4 - (padded.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

export async function currentSubscription() {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.ready;
  return registration.pushManager.getSubscription();
}

/** Ask for permission, subscribe with the server's key and send the subscription. */
export async function subscribe(key) {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return { ok: false, reason: "denied" };
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(key),
  });
  await api.post(PUSH_SUBSCRIPTIONS_PATH, subscription.toJSON());
  return { ok: true };
}

export async function unsubscribe() {
  const subscription = await currentSubscription();
  if (!subscription) return;
  try {
    await api.post(`${PUSH_SUBSCRIPTIONS_PATH}delete/`, { endpoint: subscription.endpoint });
  } catch (_) {
    // the server forgets dead endpoints by itself (410 from the push service)
  }
  await subscription.unsubscribe();
}
