import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Link } from "react-router";
import { CheckboxField, Field } from "~/components/forms";

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
export function NewPasswordFields({ password, confirmation, fresh = true }: { password: TextField; confirmation: TextField; fresh?: boolean }) {
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

/** "I agree to the Terms of Service and Privacy Policy", each linked (register, band invitation sign-up). */
export function TermsAgreementField({
  field,
  documents,
}: {
  field: FieldMetadata<string | boolean | undefined>;
  documents: ReadonlyArray<{ id: number; name: string; slug: string }>;
}) {
  return (
    <CheckboxField
      label={
        <>
          I agree to the{" "}
          {documents.length
            ? documents.map((d, i) => (
                <span key={d.id}>
                  {i > 0 ? (i === documents.length - 1 ? " and " : ", ") : null}
                  <Link to={`/legal-terms/${d.slug}`} target="_blank" rel="noopener" className="text-brand-800 underline">
                    {d.name}
                  </Link>
                </span>
              ))
            : "legal terms"}
          .
        </>
      }
      inputProps={getInputProps(field, { type: "checkbox", value: "on" })}
      errors={field.errors}
      errorId={field.errorId}
    />
  );
}
