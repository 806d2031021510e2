/** True when the hidden honeypot field was filled in: a bot, not a person. */
export function isHoneypotFilled(formData: FormData): boolean {
  const value = formData.get("website_url");
  return typeof value === "string" && value.length > 0;
}
