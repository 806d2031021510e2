import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Field } from "~/components/forms";

type TextField = FieldMetadata<string>;

/** First and last name side by side (register, account). */
export function NameFields({ name, lastName }: { name: TextField; lastName: TextField }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field
        label="First name"
        inputProps={{ ...getInputProps(name, { type: "text" }), autoComplete: "given-name" }}
        errors={name.errors}
        errorId={name.errorId}
      />
      <Field
        label="Last name"
        inputProps={{ ...getInputProps(lastName, { type: "text" }), autoComplete: "family-name" }}
        errors={lastName.errors}
        errorId={lastName.errorId}
      />
    </div>
  );
}

/** A password to choose and its repetition (register, reset, activation, account); `fresh` says "new". */
export function NewPasswordFields({
  password,
  confirmation,
  fresh = true,
}: {
  password: TextField;
  confirmation: TextField;
  fresh?: boolean;
}) {
  return (
    <>
      <Field
        label={fresh ? "New password" : "Password"}
        help="At least 8 characters."
        inputProps={{ ...getInputProps(password, { type: "password" }), autoComplete: "new-password" }}
        errors={password.errors}
        errorId={password.errorId}
      />
      <Field
        label={fresh ? "Repeat new password" : "Repeat password"}
        inputProps={{ ...getInputProps(confirmation, { type: "password" }), autoComplete: "new-password" }}
        errors={confirmation.errors}
        errorId={confirmation.errorId}
      />
    </>
  );
}
