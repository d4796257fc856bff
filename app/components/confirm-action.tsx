import { Form, Link, useSearchParams } from 'react-router'
import { useEffect, useRef } from 'react'
import { useTranslation } from '~/i18n/translation'
import { useHydrated } from 'remix-utils/use-hydrated'
import { FormSecurity, StatusButton, useIsPending } from './forms'
import { ButtonLink } from './button-link'

/**
 * An action that asks first (cancel a request, select an offer, delete a vehicle): without
 * JavaScript the trigger opens `?confirm=<id>#<id>-confirm`, where the server shows the question
 * with the real form and the browser scrolls to it (issue 32: it may be thousands of pixels down
 * the page); with it, the same link opens a dialog holding the same form.
 */
export function ConfirmAction({
	id,
	label,
	title,
	description,
	confirmLabel,
	fields,
	triggerClassName = 'button button--ghost',
	danger = false,
}: {
	id: string
	label: string
	title: string
	description?: string
	confirmLabel: string
	/** Hidden inputs of the form: the intent and the ids it acts on. */
	fields: Record<string, string>
	triggerClassName?: string
	danger?: boolean
}) {
	const [searchParams] = useSearchParams()
	const hydrated = useHydrated()
	const dialog = useRef<HTMLDialogElement>(null)
	const askedInPage = searchParams.get('confirm') === id
	const closeSearch = new URLSearchParams(searchParams)
	closeSearch.delete('confirm')
	const openSearch = new URLSearchParams(searchParams)
	openSearch.set('confirm', id)
	const anchor = `${id}-confirm`
	const panel = useRef<HTMLElement>(null)
	// A question shown in the page (the link followed before the script ran) is brought into view and focused.
	useEffect(() => {
		if (askedInPage) panel.current?.focus()
	}, [askedInPage])

	const question = (inDialog: boolean) => (
		<ConfirmForm
			id={id}
			title={title}
			description={description}
			confirmLabel={confirmLabel}
			fields={fields}
			danger={danger}
			cancel={
				inDialog ? (
					<button type="button" className="button button--ghost" onClick={() => dialog.current?.close()}>
						<CancelLabel />
					</button>
				) : (
					<ButtonLink to={{ search: closeSearch.toString() }} preventScrollReset kind="ghost">
						<CancelLabel />
					</ButtonLink>
				)
			}
		/>
	)

	return (
		<>
			<Link
				to={{ search: openSearch.toString(), hash: anchor }}
				preventScrollReset
				className={triggerClassName}
				onClick={(event) => {
					if (!hydrated || !dialog.current) return
					event.preventDefault()
					dialog.current.showModal()
				}}
			>
				{label}
			</Link>
			{askedInPage ? (
				<section ref={panel} id={anchor} className="confirm-panel" tabIndex={-1}>
					{question(false)}
				</section>
			) : null}
			{hydrated ? (
				<dialog ref={dialog} className="confirm-dialog" aria-labelledby={`${id}-title-dialog`}>
					{question(true)}
				</dialog>
			) : null}
		</>
	)
}

function CancelLabel() {
	const { t } = useTranslation()
	return <>{t('actions.cancel')}</>
}

function ConfirmForm({
	id,
	title,
	description,
	confirmLabel,
	fields,
	danger,
	cancel,
}: {
	id: string
	title: string
	description?: string
	confirmLabel: string
	fields: Record<string, string>
	danger: boolean
	cancel: React.ReactNode
}) {
	const isPending = useIsPending()
	return (
		<Form method="post" className="confirm" preventScrollReset>
			<h2 id={`${id}-title-dialog`} className="confirm__title">
				{title}
			</h2>
			{description ? <p className="confirm__text">{description}</p> : null}
			<FormSecurity />
			{Object.entries(fields).map(([name, value]) => (
				<input key={name} type="hidden" name={name} value={value} />
			))}
			<div className="form-actions">
				<StatusButton type="submit" status={isPending ? 'pending' : 'idle'} className={danger ? 'button--danger' : 'button--primary'}>
					{confirmLabel}
				</StatusButton>
				{cancel}
			</div>
		</Form>
	)
}
