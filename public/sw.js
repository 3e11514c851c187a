/*
 * Tradepost's service worker: shows the account's notifications that arrive by Web Push, and opens
 * the screen a notification names when it is tapped. It caches nothing and answers no request:
 * pages, forms and data always come from the server.
 */
self.addEventListener("push", (event) => {
  let message = { title: "Tradepost", body: "", url: "/mine/notifications" };
  try {
    if (event.data) message = { ...message, ...event.data.json() };
  } catch {
    // A payload that is not JSON: its text as the body.
    message.body = event.data ? event.data.text() : "";
  }
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      icon: "/icons/icon-192.png",
      badge: "/icons/icon-192.png",
      tag: message.id ? `notice-${message.id}` : undefined,
      data: { url: message.url },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/mine/notifications", self.location.origin);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      for (const w of windows) {
        if (new URL(w.url).origin === url.origin && "navigate" in w) {
          return w.focus().then(() => w.navigate(url.href));
        }
      }
      return self.clients.openWindow(url.href);
    }),
  );
});
