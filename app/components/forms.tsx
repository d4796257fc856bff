import { type FieldMetadata } from '@conform-to/react'
import { Form, useNavigation, useFormAction } from 'react-router'
import { useEffect, useId, useState } from 'react'
import { useTranslation } from '~/i18n/translation'
import { AuthenticityTokenInput } from 'remix-utils/csrf/react'
import { translateMessage } from '~/utils/messages'
import { acceptOf, heldFieldName, IMAGE_TYPES, type FileKind, type HeldFile } from '~/uploads/upload-url'
import { type HoneypotInputProps } from 'remix-utils/honeypot/server'

/**
 * The few form pieces every form uses: labels, aria-invalid, aria-describedby and translated
 * errors wired once. Errors are translation keys (app/utils/validation.ts).
 */

export type ListOfErrors = Array<string | null | undefined> | null | undefined

/** A Conform field of any form, for the field groups several forms share. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: a group reads the field's name, value and errors
export type ConformField = FieldMetadata<any, any, any>

/** The first error of a field, translated; the list keeps its id so inputs can point at it. */
export function ErrorList({ id, errors }: { id?: string; errors?: ListOfErrors }) {
	const { t } = useTranslation()
	const shown = errors?.filter(Boolean) as string[] | undefined
	if (!shown?.length) return null
	return (
		<ul id={id} className="field__errors">
			{/* One message at a time: the first rule the value breaks. */}
			<li>{translateMessage(t, shown[0]!)}</li>
		</ul>
	)
}

/** Form-level errors (a wrong password, a rate limit) above the fields. */
export function FormAlert({ id, errors }: { id?: string; errors?: ListOfErrors }) {
	const { t } = useTranslation()
	const shown = errors?.filter(Boolean) as string[] | undefined
	if (!shown?.length) return null
	return (
		<div id={id} className="form-alert" role="alert">
			{shown.map((error) => (
				<p key={error}>{translateMessage(t, error)}</p>
			))}
		</div>
	)
}

type FieldBase = {
	label: React.ReactNode
	errors?: ListOfErrors
	help?: React.ReactNode
	className?: string
	/** Shows "required" to the eye and to assistive technology (the server enforces it). */
	required?: boolean
}

type ControlProps = {
	id: string
	className: string
	'aria-invalid': true | undefined
	'aria-describedby': string | undefined
	'aria-required': true | undefined
}

/**
 * What every field shares: the label, the help line, the first error, and the ids and aria
 * attributes that tie them to the control, which `children` renders.
 */
function FieldShell({
	label,
	errors,
	help,
	className,
	required,
	givenId,
	controlClass,
	children,
}: FieldBase & { givenId?: string; controlClass: string; children: (props: ControlProps) => React.ReactNode }) {
	const fallbackId = useId()
	const id = givenId ?? fallbackId
	const hasErrors = Boolean(errors?.some(Boolean))
	const errorId = hasErrors ? `${id}-error` : undefined
	const helpId = help ? `${id}-help` : undefined
	return (
		<div className={['field', className].filter(Boolean).join(' ')}>
			{/* A required field's star is drawn by CSS for the eye; aria-required tells assistive technology. */}
			<label htmlFor={id} className={required ? 'field__label field__label--required' : 'field__label'}>
				{label}
			</label>
			{children({
				id,
				className: controlClass,
				'aria-invalid': hasErrors || undefined,
				'aria-describedby': [helpId, errorId].filter(Boolean).join(' ') || undefined,
				'aria-required': required || undefined,
			})}
			{help ? (
				<p id={helpId} className="field__help">
					{help}
				</p>
			) : null}
			<ErrorList id={errorId} errors={errors} />
		</div>
	)
}

export function Field({
	inputProps: { key, id, ...inputProps },
	...field
}: FieldBase & { inputProps: React.InputHTMLAttributes<HTMLInputElement> & { key?: string } }) {
	return (
		<FieldShell {...field} givenId={id} controlClass="field__input">
			{(control) => <input key={key} {...inputProps} {...control} />}
		</FieldShell>
	)
}

export function TextareaField({
	textareaProps: { key, id, ...textareaProps },
	...field
}: FieldBase & { textareaProps: React.TextareaHTMLAttributes<HTMLTextAreaElement> & { key?: string } }) {
	return (
		<FieldShell {...field} givenId={id} controlClass="field__input field__input--textarea">
			{(control) => <textarea key={key} rows={5} {...textareaProps} {...control} />}
		</FieldShell>
	)
}

export type Option = { value: string; label: string }

export function SelectField({
	options,
	placeholder,
	selectProps: { key, id, ...selectProps },
	...field
}: FieldBase & {
	options: Option[]
	placeholder?: string
	selectProps: React.SelectHTMLAttributes<HTMLSelectElement> & { key?: string }
}) {
	return (
		<FieldShell {...field} givenId={id} controlClass="field__input field__input--select">
			{(control) => (
				<select key={key} {...selectProps} {...control}>
					{placeholder !== undefined ? <option value="">{placeholder}</option> : null}
					{options.map((option) => (
						<option key={option.value} value={option.value}>
							{option.label}
						</option>
					))}
				</select>
			)}
		</FieldShell>
	)
}

/**
 * A file input (checked on the server only) with its help line and error; the file it already
 * holds (a link to it, and a box to remove it); the files held from the form's last sending, each
 * with a box to keep it (checked), so a form that failed on another field does not lose them; and,
 * with JavaScript, previews of the files just chosen.
 */
export function FileField({
	id,
	name,
	label,
	help,
	accept,
	multiple,
	errors,
	current,
	held,
}: {
	id: string
	name: string
	label: string
	help: string
	accept: FileKind
	multiple?: boolean
	errors?: ListOfErrors
	current?: { href?: string; label?: string; removeName: string; removeLabel: string } | null
	held?: HeldFile[] | null
}) {
	const { t } = useTranslation()
	const [previews, setPreviews] = useState<Array<{ name: string; url: string | null }>>([])
	useEffect(() => () => previews.forEach((preview) => preview.url && URL.revokeObjectURL(preview.url)), [previews])
	const showPreviews = (input: HTMLInputElement) =>
		setPreviews([...(input.files ?? [])].map((file) => ({ name: file.name, url: (IMAGE_TYPES as readonly string[]).includes(file.type) ? URL.createObjectURL(file) : null })))
	// Files now held leave the input (a new input), or the next sending would carry them twice.
	const heldKey = held?.map((file) => file.id).join() ?? ''
	useEffect(() => setPreviews([]), [heldKey])
	return (
		<div className="field">
			<label htmlFor={id} className="field__label">
				{label}
			</label>
			<input
				key={heldKey}
				id={id}
				name={name}
				type="file"
				accept={acceptOf(accept)}
				multiple={multiple}
				className="field__input field__input--file"
				aria-describedby={`${id}-help ${id}-error`}
				aria-invalid={errors?.length ? true : undefined}
				onChange={(event) => showPreviews(event.currentTarget)}
			/>
			<p id={`${id}-help`} className="field__help">
				{help}
			</p>
			{previews.length ? (
				<ul className="file-list" aria-label={t('upload.chosen')}>
					{previews.map((preview, index) => (
						<li key={`${heldKey}-${index}`} className="file-list__item">
							{preview.url ? <img src={preview.url} alt="" width={96} height={72} /> : null}
							<span className="file-list__name">{preview.name}</span>
						</li>
					))}
				</ul>
			) : null}
			{held?.length ? (
				<fieldset className="fieldset file-list__held">
					<legend>{t('upload.held')}</legend>
					<ul className="file-list">
						{held.map((file) => (
							<li key={file.id} className="file-list__item">
								{file.image ? <img src={`/uploads/${file.id}?variant=thumb`} alt="" width={96} height={72} /> : null}
								<label className="checkbox">
									<input type="checkbox" name={heldFieldName(name)} value={file.id} defaultChecked />
									<span className="file-list__name">{t('upload.keep', { name: file.name || t('upload.unnamed') })}</span>
								</label>
							</li>
						))}
					</ul>
				</fieldset>
			) : null}
			{current ? (
				<p className="field__help">
					{current.href ? (
						<a href={current.href} download>
							{current.label}
						</a>
					) : null}{' '}
					<label className="checkbox checkbox--inline">
						<input type="checkbox" name={current.removeName} value="yes" />
						<span>{current.removeLabel}</span>
					</label>
				</p>
			) : null}
			<ErrorList id={`${id}-error`} errors={errors} />
		</div>
	)
}

/**
 * A group of checkboxes for one list field (services, brands…): a fieldset whose legend names it,
 * with the first error under the list and aria-describedby on every box.
 */
export function CheckboxGroup({
	legend,
	name,
	options,
	defaultValue,
	errors,
	help,
	required,
	className,
}: {
	legend: string
	name: string
	options: Option[]
	defaultValue?: string[] | string | null
	errors?: ListOfErrors
	help?: React.ReactNode
	required?: boolean
	className?: string
}) {
	const id = useId()
	const hasErrors = Boolean(errors?.some(Boolean))
	const selected = new Set(Array.isArray(defaultValue) ? defaultValue : defaultValue ? [defaultValue] : [])
	const describedBy = [help ? `${id}-help` : null, hasErrors ? `${id}-error` : null].filter(Boolean).join(' ') || undefined
	return (
		<fieldset className={['fieldset checkbox-group', className].filter(Boolean).join(' ')} aria-describedby={describedBy} aria-invalid={hasErrors || undefined}>
			<legend className={required ? 'field__label field__label--required' : 'field__label'}>{legend}</legend>
			{help ? (
				<p id={`${id}-help`} className="field__help">
					{help}
				</p>
			) : null}
			<ul className="checkbox-group__list">
				{options.map((option) => (
					<li key={option.value}>
						<label className="checkbox">
							<input type="checkbox" name={name} value={option.value} defaultChecked={selected.has(option.value)} />
							<span>{option.label}</span>
						</label>
					</li>
				))}
			</ul>
			<ErrorList id={`${id}-error`} errors={errors} />
		</fieldset>
	)
}

/** A submit button that shows it is working while its form is being submitted. */
export function StatusButton({
	status,
	children,
	className,
	...props
}: React.ButtonHTMLAttributes<HTMLButtonElement> & { status: 'idle' | 'pending' }) {
	const { t } = useTranslation()
	const pending = status !== 'idle'
	return (
		<button
			{...props}
			className={['button', className ?? 'button--primary', pending ? 'button--pending' : ''].filter(Boolean).join(' ')}
			aria-busy={pending || undefined}
			disabled={props.disabled || pending}
		>
			{pending ? <span className="spinner" aria-hidden="true" /> : null}
			{children}
			{pending ? <span className="visually-hidden"> ({t('forms.sending')})</span> : null}
		</button>
	)
}

/**
 * The row under a form: its submit button, busy while the form is being sent, then whatever stands
 * beside it (a link, a note). `large` for the main form of a page.
 */
export function FormActions({
	submit,
	large = false,
	className,
	children,
}: {
	submit: React.ReactNode
	large?: boolean
	/** More classes for the row (`form-actions--spread`, `form-actions--sticky`). */
	className?: string
	children?: React.ReactNode
}) {
	const isPending = useIsPending()
	return (
		<div className={['form-actions', className].filter(Boolean).join(' ')}>
			<StatusButton type="submit" status={isPending ? 'pending' : 'idle'} className={large ? 'button--primary button--large' : undefined}>
				{submit}
			</StatusButton>
			{children}
		</div>
	)
}

/** A titled group of a form's fields, two to a row where the screen is wide enough. */
export function FormSection({ legend, children }: { legend: React.ReactNode; children: React.ReactNode }) {
	return (
		<fieldset className="fieldset">
			<legend>{legend}</legend>
			<div className="form-grid form-grid--two">{children}</div>
		</fieldset>
	)
}

/** True while a form posting to `formAction` (this route's action by default) is in flight. */
export function useIsPending({ formAction, formMethod = 'POST' }: { formAction?: string; formMethod?: string } = {}) {
	const navigation = useNavigation()
	const ownAction = useFormAction()
	return (
		navigation.state !== 'idle' &&
		navigation.formMethod === formMethod &&
		navigation.formAction === (formAction ?? ownAction)
	)
}

/**
 * A form that is one button (snooze, turn off, remove, make a link): its intent and hidden fields,
 * the button small and quiet unless `className` says otherwise. `describedBy` names the item it
 * acts on, for a screen reader among many such buttons.
 */
export function IntentButton({
	intent,
	fields = {},
	describedBy,
	className = 'button button--ghost button--small',
	children,
}: {
	intent: string
	fields?: Record<string, string | number>
	describedBy?: string
	className?: string
	children: React.ReactNode
}) {
	return (
		<Form method="post">
			<FormSecurity intent={intent} />
			{Object.entries(fields).map(([name, value]) => (
				<input key={name} type="hidden" name={name} value={value} />
			))}
			<button type="submit" className={className} aria-describedby={describedBy}>
				{children}
			</button>
		</Form>
	)
}

/**
 * The hidden inputs every form carries: the CSRF token, the bot trap where asked, and the `intent`
 * that tells the action which of a page's forms was sent.
 */
export function FormSecurity({ honeypot, intent }: { honeypot?: HoneypotInputProps; intent?: string }) {
	return (
		<>
			<AuthenticityTokenInput name="csrf" />
			{honeypot ? <HoneypotInputs {...honeypot} /> : null}
			{intent ? <input type="hidden" name="intent" value={intent} /> : null}
		</>
	)
}

/**
 * remix-utils' honeypot fields, hidden with a class rather than an inline style (the CSP forbids
 * inline styles, which would leave the trap visible to people).
 */
function HoneypotInputs({ nameFieldName = 'name__confirm', validFromFieldName = 'from__confirm', encryptedValidFrom }: HoneypotInputProps) {
	const { t } = useTranslation()
	return (
		<div className="honeypot" aria-hidden="true">
			<label htmlFor={nameFieldName}>{t('forms.honeypot')}</label>
			<input id={nameFieldName} name={nameFieldName} type="text" defaultValue="" autoComplete="off" tabIndex={-1} />
			{validFromFieldName && encryptedValidFrom ? (
				<input name={validFromFieldName} type="hidden" value={encryptedValidFrom} readOnly />
			) : null}
		</div>
	)
}
