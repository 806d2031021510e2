import { describe, expect, it } from "vitest";
import { RegisterSchema, ResetPasswordSchema } from "./schemas";

describe("password confirmation", () => {
  it("reports a mismatch even while other fields are still wrong", () => {
    const result = RegisterSchema.safeParse({
      name: "",
      lastName: "Doe",
      email: "not-an-email",
      password: "long-enough-1",
      passwordConfirmation: "long-enough-2",
    });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((i) => i.path.join("."));
    expect(paths).toEqual(expect.arrayContaining(["name", "email", "terms", "passwordConfirmation"]));
  });

  it("accepts a matching pair", () => {
    expect(ResetPasswordSchema.safeParse({ password: "long-enough-1", passwordConfirmation: "long-enough-1" }).success).toBe(true);
    expect(ResetPasswordSchema.safeParse({ password: "long-enough-1", passwordConfirmation: "long-enough-x" }).success).toBe(false);
  });
});
