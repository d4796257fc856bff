import { type FormEvent, useId, useRef, useState } from 'react'
import { ContactSchema, type ContactInput } from '~/domain/messaging/contact'
import { ApiError } from './api'
import { useWidget } from './context'
import { BotTrap, SendButton } from './ui'

type Values = Record<keyof ContactInput, string>
type Errors = Partial<Record<keyof ContactInput | 'form', string>>
const fields = ['name', 'email', 'message'] as const
/** What the schema can say (app/utils/validation.ts), as texts of the portal's common dictionary. */
const messages: Record<string, string> = {
	'validation.required': 'common:validation.required',
	'validation.email': 'common:validation.email',
	'validation.tooLong': 'common:validation.tooLong',
}

/**
 * The portal's contact form (same zod schema, same words): errors appear when the form is sent,
 * then follow the typing; the server's own field errors are shown next to the fields.
 */
export function ContactWidget() {
	const { api, t } = useWidget()
	const id = useId()
	const [values, setValues] = useState<Values>({ name: '', email: '', message: '' })
	const [errors, setErrors] = useState<Errors>({})
	const [submitted, setSubmitted] = useState(false)
	const [sending, setSending] = useState(false)
	const [thanks, setThanks] = useState<string | null>(null)
	const trap = useRef<HTMLInputElement>(null)
	const form = useRef<HTMLFormElement>(null)

	// Schema errors are translation keys under common:validation (app/utils/validation.ts).
	const validate = (next: Values): Errors => {
		const result = ContactSchema.safeParse(next)
		if (result.success) return {}
		const found: Errors = {}
		for (const issue of result.error.issues) {
			const field = issue.path[0] as keyof ContactInput
			found[field] ??= t(messages[issue.message] ?? 'common:validation.invalid')
		}
		return found
	}

	const update = (field: keyof ContactInput, value: string) => {
		const next = { ...values, [field]: value }
		setValues(next)
		if (submitted) setErrors(validate(next))
	}

	const submit = async (event: FormEvent) => {
		event.preventDefault()
		setSubmitted(true)
		const found = validate(values)
		setErrors(found)
		if (Object.keys(found).length) {
			const first = fields.find((field) => found[field])
			form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus()
			return
		}
		setSending(true)
		try {
			const answer = await api.contact({ ...ContactSchema.parse(values), name__confirm: trap.current?.value ?? '' })
			setThanks(answer.message || t('public:contact.thanks'))
		} catch (error) {
			if (error instanceof ApiError && error.status === 422) {
				const server: Errors = { form: error.message || t('common:validation.invalid') }
				for (const [field, list] of Object.entries(error.errors)) server[field as keyof Errors] = list[0]
				setErrors(server)
			} else {
				setErrors({ form: error instanceof ApiError && error.status === 429 && error.message ? error.message : t('widgets:sendFailed') })
			}
		} finally {
			setSending(false)
		}
	}

	if (thanks) {
		return (
			<section className="widget widget--contact" aria-labelledby={`${id}-title`}>
				<h2 id={`${id}-title`} className="widget__title">
					{t('public:contact.title')}
				</h2>
				<p className="state state--success" role="status">
					{thanks}
				</p>
			</section>
		)
	}

	const describedBy = (field: keyof ContactInput) => (errors[field] ? `${id}-${field}-error` : undefined)
	return (
		<section className="widget widget--contact" aria-labelledby={`${id}-title`}>
			<h2 id={`${id}-title`} className="widget__title">
				{t('public:contact.title')}
			</h2>
			<p className="muted">{t('public:contact.intro')}</p>
			<form ref={form} className="contact" noValidate onSubmit={submit} aria-labelledby={`${id}-title`}>
				{errors.form ? (
					<p className="alert" role="alert">
						{errors.form}
					</p>
				) : null}
				{fields.map((field) => {
					const label = t(field === 'name' ? 'public:contact.name' : field === 'email' ? 'public:contact.emailAddress' : 'public:contact.message')
					const common = {
						id: `${id}-${field}`,
						name: field,
						value: values[field],
						required: true,
						'aria-invalid': errors[field] ? true : undefined,
						'aria-describedby': describedBy(field),
					}
					return (
						<div key={field} className="field field--wide">
							<label htmlFor={`${id}-${field}`}>{label}</label>
							{field === 'message' ? (
								<textarea {...common} rows={5} maxLength={5000} onChange={(event) => update(field, event.target.value)} />
							) : (
								<input
									{...common}
									type={field === 'email' ? 'email' : 'text'}
									autoComplete={field === 'email' ? 'email' : 'name'}
									maxLength={field === 'email' ? 254 : 100}
									onChange={(event) => update(field, event.target.value)}
								/>
							)}
							{errors[field] ? (
								<p id={`${id}-${field}-error`} className="field__error">
									{errors[field]}
								</p>
							) : null}
						</div>
					)
				})}
				<BotTrap id={id} trap={trap} />
				<p className="muted small">{t('public:contact.privacy')}</p>
				<SendButton sending={sending} label={t('public:contact.send')} />
			</form>
		</section>
	)
}
