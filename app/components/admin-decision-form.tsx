import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form } from 'react-router'
import type * as z from 'zod/mini'
import { FormAlert, FormSecurity, TextareaField } from './forms'

/**
 * An administrator's decision on one item of a queue (a disputed bill, a reported review): why
 * (required: both sides read it, the audit log keeps it), then one of the buttons, each a decision.
 * The item's id travels as `idName`; the action answers `{ [idName]: id, result }` when refused.
 */
export function AdminDecisionForm({
	id,
	idName,
	headingId,
	schema,
	lastResult,
	note,
	decisions,
}: {
	id: string
	idName: string
	/** The item's heading, which each button names (aria-describedby). */
	headingId: string
	schema: z.ZodMiniType<{ note: string; decision: string }, unknown>
	lastResult: SubmissionResult<string[]> | undefined
	note: { label: string; help: string }
	decisions: Array<{ value: string; label: string; className: string }>
}) {
	const [form, fields] = useForm<{ note: string; decision: string }>({
		id: `decide-${id}`,
		lastResult,
		onValidate: ({ formData }) => parseWithZod(formData, { schema }),
		shouldRevalidate: 'onInput',
	})
	return (
		<Form method="post" className="form" {...getFormProps(form)}>
			<FormSecurity />
			<input type="hidden" name={idName} value={id} />
			{/* No decision is a form error: the buttons are the decision. */}
			<FormAlert id={form.errorId} errors={[...(form.errors ?? []), ...(fields.decision.errors ?? [])]} />
			<TextareaField label={note.label} required help={note.help} textareaProps={{ ...getTextareaProps(fields.note), rows: 3 }} errors={fields.note.errors} />
			<div className="form-actions">
				{decisions.map((decision) => (
					<button key={decision.value} type="submit" name="decision" value={decision.value} className={`button ${decision.className}`} aria-describedby={headingId}>
						{decision.label}
					</button>
				))}
			</div>
		</Form>
	)
}
