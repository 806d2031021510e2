/** Notification colours. Shared by the schema, forms and the bell. */
export const notificationColors = ["green", "purple", "orange", "blue", "red", "yellow", "gray"] as const;
export type NotificationColor = (typeof notificationColors)[number];
