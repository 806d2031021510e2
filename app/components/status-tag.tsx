/**
 * Status tags"): one label and one colour per status of
 * the spec's vocabulary, so every list and detail page shows the same word in the same colour.
 * The colour is never the only signal: the tag always carries its label.
 */

type Tone = "green" | "amber" | "red" | "blue" | "purple" | "gray" | "teal";

const TONES: Record<Tone, string> = {
  green: "bg-green-50 text-green-800 ring-green-600/20",
  amber: "bg-amber-50 text-amber-800 ring-amber-600/25",
  red: "bg-red-50 text-red-800 ring-red-600/20",
  blue: "bg-sky-50 text-sky-800 ring-sky-600/20",
  purple: "bg-purple-50 text-purple-800 ring-purple-600/20",
  gray: "bg-stone-100 text-stone-700 ring-stone-500/20",
  teal: "bg-teal-50 text-teal-800 ring-teal-600/20",
};

const dot: Record<Tone, string> = {
  green: "bg-green-600",
  amber: "bg-amber-500",
  red: "bg-red-600",
  blue: "bg-sky-600",
  purple: "bg-purple-600",
  gray: "bg-stone-400",
  teal: "bg-teal-600",
};

export const STATUS_TAGS = {
  active: { label: "Active", tone: "green" },
  inactive: { label: "Inactive", tone: "gray" },
  pending: { label: "Pending", tone: "amber" },
  pending_approval: { label: "Pending approval", tone: "amber" },
  approved: { label: "Approved", tone: "green" },
  accepted: { label: "Accepted", tone: "green" },
  rejected: { label: "Rejected", tone: "red" },
  declined: { label: "Declined", tone: "red" },
  canceled: { label: "Canceled", tone: "gray" },
  completed: { label: "Completed", tone: "teal" },
  draft: { label: "Draft", tone: "gray" },
  published: { label: "Published", tone: "green" },
  unpublished: { label: "Unpublished", tone: "gray" },
  public: { label: "Public", tone: "blue" },
  private: { label: "Private", tone: "purple" },
  paid: { label: "Paid", tone: "green" },
  received: { label: "Received", tone: "teal" },
  standby: { label: "Standby", tone: "gray" },
  in_progress: { label: "In progress", tone: "blue" },
  awaiting_approval: { label: "Awaiting approval", tone: "amber" },
  revision_requested: { label: "Revision requested", tone: "purple" },
  account_pending: { label: "Account pending", tone: "amber" },
  required: { label: "Required", tone: "red" },
  suspended: { label: "Suspended", tone: "red" },
  unverified: { label: "Unverified", tone: "amber" },
} as const satisfies Record<string, { label: string; tone: Tone }>;

export type Status = keyof typeof STATUS_TAGS;

export function isStatus(value: string): value is Status {
  return Object.hasOwn(STATUS_TAGS, value);
}

/** The label and colour classes of a status; an unknown one is shown as its words, in grey. */
export function statusStyle(status: string): { label: string; className: string; dotClassName: string } {
  const known = isStatus(status) ? STATUS_TAGS[status] : undefined;
  const tone: Tone = known?.tone ?? "gray";
  const label = known?.label ?? status.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
  return { label, className: TONES[tone], dotClassName: dot[tone] };
}

/** A small pill with a coloured dot; `label` overrides the vocabulary's word where a page needs another. */
export function StatusTag({ status, label, className = "" }: { status: Status | (string & {}); label?: string; className?: string }) {
  const style = statusStyle(status);
  return (
    <span
      data-status={status}
      className={`inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${style.className} ${className}`}
    >
      <span aria-hidden="true" className={`size-1.5 rounded-full ${style.dotClassName}`} />
      {label ?? style.label}
    </span>
  );
}
