import { useEffect, useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from "react";
import { useLocation, useNavigation } from "react-router";

/**
 * The one form pattern: Conform + zod on both sides, a plain <Form method="post"> that works
 * without JavaScript, an error message beside each field, form-level errors in an alert.
 */

export type ErrorList = Array<string | null | undefined> | null | undefined;

export function FieldErrors({ id, errors }: { id?: string; errors: ErrorList }) {
  const list = errors?.filter(Boolean) ?? [];
  if (!list.length) return null;
  return (
    <ul id={id} className="mt-1 space-y-0.5 text-sm text-red-700">
      {list.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  );
}

export function FormAlert({ id, errors }: { id?: string; errors: ErrorList }) {
  const list = errors?.filter(Boolean) ?? [];
  if (!list.length) return null;
  return (
    <div id={id} role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {list.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}

interface ControlProps {
  label: ReactNode;
  errors?: ErrorList;
  errorId?: string;
  help?: ReactNode;
}

const controlClass = (invalid: boolean) =>
  `mt-1 block w-full rounded-md border bg-white px-3 py-2 text-base shadow-sm sm:text-sm ${
    invalid ? "border-red-500" : "border-stone-300"
  } focus:border-brand-700 focus:ring-1 focus:ring-brand-700 focus:outline-none disabled:bg-stone-100 disabled:text-stone-500`;

/** A text or search input's look, for the few controls drawn outside Field (a list's search box). */
export const inputClass = controlClass(false);
/** A secondary action beside the form's main button (move a stage, download), and a destructive one (cancel). */
export const secondaryButton =
  "inline-flex items-center justify-center rounded-md border border-stone-300 bg-white px-4 py-2.5 text-sm font-semibold text-stone-800 shadow-sm hover:bg-stone-50";
export const dangerButton =
  "inline-flex items-center justify-center rounded-md border border-red-300 bg-white px-4 py-2.5 text-sm font-semibold text-red-800 shadow-sm hover:bg-red-50";

/**
 * What every labelled control shares: the label, the help text and the errors beside it, and the
 * aria wiring between them. `render` draws the control itself with the attributes it must carry.
 */
function LabelledControl({
  label,
  errors,
  errorId,
  help,
  id: givenId,
  render,
}: ControlProps & {
  id?: string;
  render: (a11y: { id: string; "aria-invalid"?: true; "aria-describedby"?: string; className: string }) => ReactNode;
}) {
  const fallbackId = useId();
  const id = givenId ?? fallbackId;
  const helpId = help ? `${id}-help` : undefined;
  const invalid = Boolean(errors?.length);
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-stone-800">
        {label}
      </label>
      {render({
        id,
        "aria-invalid": invalid || undefined,
        "aria-describedby": [invalid ? errorId : undefined, helpId].filter(Boolean).join(" ") || undefined,
        className: controlClass(invalid),
      })}
      {help ? (
        <p id={helpId} className="mt-1 text-xs text-stone-500">
          {help}
        </p>
      ) : null}
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}

export function Field({ inputProps, ...control }: ControlProps & { inputProps: InputHTMLAttributes<HTMLInputElement> & { key?: string } }) {
  const { key, ...props } = inputProps;
  return <LabelledControl {...control} id={props.id} render={(a11y) => <input key={key} {...props} {...a11y} />} />;
}

export function TextareaField({ textareaProps, ...control }: ControlProps & { textareaProps: TextareaHTMLAttributes<HTMLTextAreaElement> & { key?: string } }) {
  const { key, ...props } = textareaProps;
  return (
    <LabelledControl
      {...control}
      id={props.id}
      render={(a11y) => <textarea key={key} rows={4} {...props} {...a11y} className={`${a11y.className} resize-y`} />}
    />
  );
}

export function CheckboxField({
  label,
  inputProps,
  errors,
  errorId,
}: {
  label: ReactNode;
  inputProps: InputHTMLAttributes<HTMLInputElement> & { key?: string };
  errors?: ErrorList;
  errorId?: string;
}) {
  const fallbackId = useId();
  const { key, ...props } = inputProps;
  const id = props.id ?? fallbackId;
  const invalid = Boolean(errors?.length);
  return (
    <div>
      <div className="flex items-start gap-2">
        <input
          key={key}
          {...props}
          type="checkbox"
          id={id}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? errorId : undefined}
          className="mt-0.5 size-4 rounded border-stone-300 accent-brand-800"
        />
        <label htmlFor={id} className="text-sm text-stone-800">
          {label}
        </label>
      </div>
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}

export function SelectField({
  selectProps,
  options,
  ...control
}: ControlProps & {
  selectProps: SelectHTMLAttributes<HTMLSelectElement> & { key?: string };
  options: Array<{ value: string | number; label: string; disabled?: boolean }>;
}) {
  const { key, ...props } = selectProps;
  return (
    <LabelledControl
      {...control}
      id={props.id}
      render={(a11y) => (
        <select key={key} {...props} {...a11y}>
          {options.map((option) => (
            <option key={option.value} value={option.value} disabled={option.disabled}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}

/** Disabled and labelled while its form is submitting (with JavaScript; without, the browser shows progress). */
export function SubmitButton({
  children,
  pendingLabel,
  name,
  value,
  className,
  busy,
}: {
  children: ReactNode;
  pendingLabel?: string;
  name?: string;
  value?: string;
  /** Replaces the default (full-width, primary) look. */
  className?: string;
  /** A form submitted by a fetcher says itself when it is busy (the navigation does not know it). */
  busy?: boolean;
}) {
  const navigation = useNavigation();
  const pending = busy ?? (navigation.state === "submitting" && (!name || navigation.formData?.get(name) === value));
  return (
    <button
      type="submit"
      name={name}
      value={value}
      disabled={pending}
      className={
        className ??
        "inline-flex w-full items-center justify-center rounded-md bg-brand-900 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 disabled:opacity-60"
      }
    >
      {pending ? (pendingLabel ?? "Working…") : children}
    </button>
  );
}

/** A field people never see: bots that fill it in are turned away (see honeypot.server.ts). */
export function Honeypot() {
  return (
    <div aria-hidden="true" style={{ position: "absolute", left: "-10000px", width: 1, height: 1, overflow: "hidden" }}>
      <label htmlFor="website-url">Leave this field empty</label>
      <input id="website-url" type="text" name="website_url" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

export function AuthCard({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <div className="rounded-xl border border-stone-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {intro ? <div className="mt-2 text-sm text-stone-600">{intro}</div> : null}
        <div className="mt-6">{children}</div>
      </div>
    </div>
  );
}

/**
 * Password fields never keep their value after a failed submit. Without JavaScript the server's
 * reply hides them; with JavaScript the browser still holds them, so they are emptied here too.
 * (The inputs are uncontrolled and read at submit time, so clearing the DOM keeps the server's errors.)
 */
export function useClearOnError(formId: string, lastResult: { status?: string } | undefined | null, names: string[]) {
  const joined = names.join(",");
  useEffect(() => {
    if (lastResult?.status !== "error") return;
    const form = document.getElementById(formId);
    if (!(form instanceof HTMLFormElement)) return;
    for (const name of joined.split(",")) {
      const input = form.elements.namedItem(name);
      if (input instanceof HTMLInputElement) input.value = "";
    }
  }, [formId, lastResult, joined]);
}

/**
 * A key for a <Form> that changes only after a successful submit (see redirectAfterSuccess), emptying it. With
 * `intent`, only that form's own success counts (`done=<intent>-…`): a page of several forms, where another
 * form's success or an error reply changes the URL, keeps this one (and the errors shown beside it) in place.
 */
export function useFormResetKey(intent?: string): string {
  const done = new URLSearchParams(useLocation().search).get("done");
  if (intent === undefined) return done ?? "form";
  return done?.startsWith(`${intent}-`) ? done : intent;
}
