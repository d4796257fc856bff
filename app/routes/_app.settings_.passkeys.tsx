import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, Link, useActionData, useLoaderData, useNavigation } from 'react-router'
import { useRef, useState } from 'react'
import type { RegistrationResponseJSON } from '@simplewebauthn/server'
import { useTranslation } from '~/i18n/translation'
import { useLanguage } from '~/i18n/use-language'
import { Field, FormAlert, FormSecurity, StatusButton } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { Panel } from '~/components/panel'
import { passkeyCeremony, PasskeyError, usePasskeySupport } from '~/components/passkeys'
import { AddPasskeySchema, PASSKEY_NAME_MAX, RemovePasskeySchema } from '~/domain/accounts/passkeys'
import { addPasskey, listPasskeys, passkeysAvailable, removePasskey } from '~/domain/accounts/passkeys.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { isConfirmedAdministrator, mayAddWayIn, requireUser } from '~/utils/auth.server'
import { STEP_UP_PATH } from '~/utils/route-access'
import { validateCsrf } from '~/utils/csrf.server'
import { formatDate } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { handleDomainError } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'

/**
 * A person's passkeys (issue 36, docs/decisions/0151): the list with each one's name, when it was
 * added and last used, removing one (a plain form), and adding one (the browser's ceremony, which
 * needs JavaScript; without it the page says so). An administrator adds one only from a session
 * confirmed by a second factor or a one-time enrolment link (decision 0156): otherwise the page
 * leads to the step-up page instead of the form, and the action refuses (403); one added through
 * a link goes on to the step-up page, to confirm with it.
 */
export async function loader({ request }: LoaderFunctionArgs) {
	const user = await requireUser(request)
	const t = getFixedT(await getLanguage(request), 'account')
	return {
		meta: { title: t('passkeys.title') },
		available: passkeysAvailable(),
		// An administrator whose session may not add a way in is sent to the step-up page (decision 0156).
		mayAdd: mayAddWayIn(user),
		email: user.email,
		passkeys: (await listPasskeys(user.id)).map((each) => ({ ...each, createdAt: each.createdAt.toISOString(), lastUsedAt: each.lastUsedAt?.toISOString() ?? null })),
	}
}

export async function action({ request }: ActionFunctionArgs) {
	const user = await requireUser(request)
	const formData = await readForm(request)
	await validateCsrf(request, formData)

	if (formData.get('intent') === 'remove') {
		const submission = parseWithZod(formData, { schema: RemovePasskeySchema })
		if (submission.status !== 'success') return data({ intent: 'remove' as const, result: submission.reply() }, { status: 400 })
		try {
			await removePasskey(user.id, submission.value.passkeyId)
		} catch (error) {
			return handleDomainError(error, { as: 'toast', redirectTo: '/settings/passkeys', request })
		}
		return redirectWithToast('/settings/passkeys', { type: 'success', key: 'account:passkeys.removed' }, { request })
	}

	const submission = parseWithZod(formData, { schema: AddPasskeySchema })
	// No answer from the browser: the form was sent without JavaScript, which a passkey needs.
	const formErrors = formData.get('credential') ? undefined : ['account:passkeys.needsJavaScript']
	if (submission.status !== 'success') return data({ intent: 'add' as const, result: submission.reply({ formErrors, hideFields: ['credential'] }) }, { status: 400 })
	let answer: RegistrationResponseJSON
	try {
		answer = JSON.parse(submission.value.credential) as RegistrationResponseJSON
	} catch {
		return data({ intent: 'add' as const, result: submission.reply({ formErrors: ['account:passkeys.notAdded'], hideFields: ['credential'] }) }, { status: 400 })
	}
	try {
		await addPasskey({ id: user.id, mayAddWayIn: mayAddWayIn(user) }, answer, submission.value.name)
	} catch (error) {
		return handleDomainError(error, { as: 'form', submission, hideFields: ['credential'], data: { intent: 'add' as const } })
	}
	// An administrator who added it through an enrolment link confirms with it next (decision 0156).
	if (user.role === 'admin' && !isConfirmedAdministrator(user)) {
		return redirectWithToast(STEP_UP_PATH, { type: 'success', key: 'account:passkeys.addedConfirmNext', params: { name: submission.value.name } }, { request })
	}
	return redirectWithToast('/settings/passkeys', { type: 'success', key: 'account:passkeys.added', params: { name: submission.value.name } }, { request })
}

export const meta = routeMeta<typeof loader>()

export default function PasskeysPage() {
	const { t } = useTranslation('account')
	const language = useLanguage()
	const { available, mayAdd, passkeys } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const navigation = useNavigation()
	const supported = usePasskeySupport()
	const formRef = useRef<HTMLFormElement>(null)
	const [problem, setProblem] = useState<string | null>(null)
	const adding = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'add'
	// Checked on the server only: the credential is filled in by the ceremony after the name is typed.
	const [form, fields] = useForm<{ name: string; credential: string }>({
		id: 'add-passkey',
		lastResult: actionData?.intent === 'add' ? actionData.result : undefined,
		shouldValidate: 'onSubmit',
	})

	const formProps = getFormProps(form)

	/** With JavaScript the browser makes the passkey first, then the form carries its answer. */
	async function onAdd(event: React.FormEvent<HTMLFormElement>) {
		const element = event.currentTarget
		const credential = element.querySelector<HTMLInputElement>('input[name="credential"]')!
		if (credential.value) return
		event.preventDefault()
		const name = element.querySelector<HTMLInputElement>('input[name="name"]')!
		if (!name.value.trim()) {
			name.focus()
			setProblem(t('common:validation.required'))
			return
		}
		try {
			credential.value = await passkeyCeremony('add', element)
			setProblem(null)
			element.requestSubmit()
			credential.value = ''
		} catch (failure) {
			setProblem(failure instanceof PasskeyError && failure.cancelled ? t('passkeys.cancelled') : failure instanceof Error ? failure.message : String(failure))
		}
	}

	return (
		<>
			<PageHeader title={t('passkeys.title')} subtitle={t('passkeys.lead')} />
			<p>
				<Link to="/settings">{t('passkeys.back')}</Link>
			</p>
			<div className="settings-grid">
				<Panel id="passkeys-list" title={t('passkeys.listTitle')} className="card">
					{passkeys.length ? (
						<ul className="passkey-list">
							{passkeys.map((passkey) => (
								<li key={passkey.id} className="passkey-list__item">
									<div>
										<strong>{passkey.name}</strong>
										<p className="passkeys-note">
											{t('passkeys.addedOn', { date: formatDate(passkey.createdAt, language) })}
											{' · '}
											{passkey.lastUsedAt ? t('passkeys.lastUsed', { date: formatDate(passkey.lastUsedAt, language) }) : t('passkeys.neverUsed')}
										</p>
									</div>
									<Form method="post">
										<FormSecurity intent="remove" />
										<input type="hidden" name="passkeyId" value={passkey.id} />
										<button type="submit" className="button button--ghost button--small" aria-label={t('passkeys.removeNamed', { name: passkey.name })}>
											{t('passkeys.remove')}
										</button>
									</Form>
								</li>
							))}
						</ul>
					) : (
						<p>{t('passkeys.none')}</p>
					)}
					<p className="passkeys-note">{t('passkeys.passwordStays')}</p>
				</Panel>
				<Panel id="passkeys-add" title={t('passkeys.addTitle')} className="card">
					{available && !mayAdd ? (
						<>
							<p data-testid="passkeys-admin-confirm-first">{t('passkeys.adminConfirmFirst')}</p>
							<div className="form-actions">
								<Link to={STEP_UP_PATH} className="button button--primary">
									{t('passkeys.toStepUp')}
								</Link>
							</div>
						</>
					) : available ? (
						<Form
							// A new form once the list changed, so the name of the passkey just added is not left in it.
							key={passkeys.length}
							method="post"
							className="form"
							ref={formRef}
							{...formProps}
							onSubmit={(event) => {
								formProps.onSubmit(event)
								if (!event.defaultPrevented) void onAdd(event)
							}}
						>
							<FormSecurity intent="add" />
							<input type="hidden" name="credential" defaultValue="" />
							<FormAlert id={form.errorId} errors={problem ? [problem] : form.errors} />
							<Field
								label={t('passkeys.name')}
								required
								help={t('passkeys.nameHelp')}
								inputProps={{ ...getInputProps(fields.name, { type: 'text' }), maxLength: PASSKEY_NAME_MAX, autoComplete: 'off' }}
								errors={fields.name.errors}
							/>
							{supported ? null : <p className="passkeys-note">{t('passkeys.needsJavaScript')}</p>}
							<div className="form-actions">
								<StatusButton type="submit" status={adding ? 'pending' : 'idle'}>
									{t('passkeys.add')}
								</StatusButton>
							</div>
						</Form>
					) : (
						<p>{t('passkeys.unavailable')}</p>
					)}
				</Panel>
			</div>
		</>
	)
}
