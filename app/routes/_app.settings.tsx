import { getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, Link, useActionData, useLoaderData, useNavigation } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { CheckboxGroup, Field, FormActions, FormAlert, FormSecurity, SelectField, StatusButton } from '~/components/forms'
import { NewPasswordField } from '~/components/new-password-field'
import { PageHeader } from '~/components/page-header'
import { Panel } from '~/components/panel'
import { EidButton } from '~/components/eid'
import { ChangePasswordSchema, LanguageSchema } from '~/domain/accounts/accounts'
import { changePassword, requestPasswordReset, setPreferredLanguage } from '~/domain/accounts/accounts.server'
import { linkedEid, signInMethods, unlinkEid } from '~/domain/accounts/eid.server'
import { confirmWithPasskey, listPasskeys, passkeyAnswerOf, passkeysAvailable } from '~/domain/accounts/passkeys.server'
import { PasskeyConfirm } from '~/components/passkey-confirm'
import { db } from '~/db/db.server'
import { DeleteAccountSchema } from '~/domain/privacy/account-deletion'
import { deleteOwnAccount } from '~/domain/privacy/account-deletion.server'
import { EmailPreferencesSchema, emailSettings, newRequestModes } from '~/domain/messaging/email-preferences'
import { getEmailPreferences, saveEmailPreferences } from '~/domain/messaging/email-preferences.server'
import { supportedLanguages } from '~/i18n/config'
import { getFixedT, getLanguage, languageCookie } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { isRecentlyConfirmed, logout, redirectSignedIn, requireUser } from '~/utils/auth.server'
import { clientIp } from '~/utils/client-ip.server'
import { validateCsrf } from '~/utils/csrf.server'
import { getEnv } from '~/utils/env.server'
import { formatDate } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { handleDomainError } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'
import { type AdsHandle } from '~/utils/ad-places'

const signedIn = ['customer', 'workshop', 'admin'] as const

export async function loader({ request }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: signedIn })
	const language = await getLanguage(request)
	const t = getFixedT(language, 'account')
	const [methods, eid] = await Promise.all([signInMethods(db, user.id), linkedEid(user.id)])
	return {
		meta: { title: t('settings.metaTitle') },
		email: user.email,
		// An account made with eID has no password until a reset link sets one (decision 0150).
		hasPassword: methods.has('password'),
		// The eID panel: when a provider is configured, or an eID is linked from before (it can still be unlinked).
		eid: getEnv().eid || eid ? { linked: eid, canLink: Boolean(getEnv().eid) } : null,
		preferredLanguage: user.preferredLanguage ?? language,
		emails: emailSettings(user.role, await getEmailPreferences(user.id)),
		passkeys: (await listPasskeys(user.id)).length,
		// Deleting an account without a password: confirmed with eID or a passkey a moment ago (decision 0156), or how to.
		deletion: {
			confirmed: isRecentlyConfirmed(user),
			withEid: Boolean(getEnv().eid && eid),
			withPasskey: passkeysAvailable(),
		},
	}
}

export async function action({ request, context }: ActionFunctionArgs) {
	const user = await requireUser(request, { role: signedIn })
	const formData = await readForm(request)
	await validateCsrf(request, formData)

	if (formData.get('intent') === 'eid-unlink') {
		try {
			await unlinkEid(user.id)
		} catch (error) {
			// Refused without another way to sign in (a password): said at the top of the page.
			return handleDomainError(error, { as: 'toast', redirectTo: '/settings#eid', request })
		}
		return redirectWithToast('/settings#eid', { type: 'success', key: 'account:eid.unlinked' }, { request })
	}

	if (formData.get('intent') === 'set-password') {
		// A reset link to the account's own address: setting a password proves the e-mail, as a reset does.
		const limited = await requestPasswordReset({ email: user.email, ip: clientIp(context), language: await getLanguage(request) })
		if (limited) return redirectWithToast('/settings#password-title', { type: 'error', key: limited.key, params: { minutes: limited.status === 429 ? limited.minutes : 0 } }, { request })
		return redirectWithToast('/settings#password-title', { type: 'success', key: 'account:eid.passwordLinkSent', params: { email: user.email } }, { request })
	}

	if (formData.get('intent') === 'emails') {
		const submission = parseWithZod(formData, { schema: EmailPreferencesSchema })
		if (submission.status !== 'success') return data({ intent: 'emails', result: submission.reply() }, { status: 400 })
		await saveEmailPreferences(user.id, user.role, submission.value)
		return redirectWithToast('/settings', { type: 'success', key: 'account:settings.emailsSaved' }, { request })
	}

	if (formData.get('intent') === 'language') {
		const submission = parseWithZod(formData, { schema: LanguageSchema })
		if (submission.status !== 'success') return data({ intent: 'language', result: submission.reply() }, { status: 400 })
		await setPreferredLanguage(user.id, submission.value.language)
		// The cookie makes the choice take effect now; the account remembers it for the next login.
		return redirectWithToast(
			'/settings',
			{ type: 'success', key: 'account:settings.languageSaved' },
			{ request, headers: { 'Set-Cookie': await languageCookie.serialize(submission.value.language) } },
		)
	}

	if (formData.get('intent') === 'confirm-passkey') {
		// Before deleting an account that has no password: the session confirmed with one of its passkeys.
		const answer = passkeyAnswerOf(formData)
		if (!answer) return data({ intent: 'confirm-passkey' as const, passkey: 'auth:stepUp.passkeyNeedsJavaScript' }, { status: 400 })
		try {
			const token = await confirmWithPasskey({ userId: user.id, sessionId: user.sessionId }, answer, clientIp(context))
			return redirectSignedIn(request, token, '/settings#delete-account', 'account:deletion.confirmed')
		} catch (error) {
			return handleDomainError(error, { as: 'data', data: (text) => ({ intent: 'confirm-passkey' as const, passkey: text }) })
		}
	}

	if (formData.get('intent') === 'delete-account' && !formData.has('password') && isRecentlyConfirmed(user)) {
		// Confirmed with eID or a passkey a moment ago: no password asked (an account made with eID has none).
		try {
			await deleteOwnAccount({ userId: user.id, confirmed: true })
		} catch (error) {
			return handleDomainError(error, { as: 'toast', redirectTo: '/settings#delete-account', request })
		}
		return logout(request, 'account:deletion.done')
	}

	if (formData.get('intent') === 'delete-account') {
		const hideFields = ['password']
		const submission = parseWithZod(formData, { schema: DeleteAccountSchema })
		if (submission.status !== 'success') return data({ intent: 'delete-account', result: submission.reply({ hideFields }) }, { status: 400 })
		try {
			await deleteOwnAccount({ userId: user.id, password: submission.value.password })
		} catch (error) {
			// A wrong password next to its field; too many tries or a job under way above the button.
			return handleDomainError(error, { as: 'form', submission, hideFields, data: { intent: 'delete-account' as const } })
		}
		return logout(request, 'account:deletion.done')
	}

	const hidden = { hideFields: ['oldPassword', 'password', 'confirmPassword'] }
	const submission = parseWithZod(formData, { schema: ChangePasswordSchema })
	if (submission.status !== 'success') return data({ intent: 'password', result: submission.reply(hidden) }, { status: 400 })
	const outcome = await changePassword({ userId: user.id, sessionId: user.sessionId, ...submission.value })
	if (outcome !== 'ok') {
		return data(
			{ intent: 'password', result: submission.reply({ ...hidden, fieldErrors: { [outcome.field]: [outcome.key] } }) },
			{ status: 400 },
		)
	}
	return redirectWithToast('/settings', { type: 'success', key: 'account:settings.passwordChanged' }, { request })
}

export const meta = routeMeta<typeof loader>()

// Account settings show no ads (app/utils/ad-places.ts, decision 0129).
export const handle: AdsHandle = { ads: false }

export default function SettingsPage() {
	const { t } = useTranslation('account')
	const { email, preferredLanguage, emails, hasPassword, eid, passkeys, deletion } = useLoaderData<typeof loader>()
	const language = useLanguage()
	const actionData = useActionData<typeof action>()
	const navigation = useNavigation()
	const isDeleting = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'delete-account'
	const [passwordForm, passwordFields] = useForm({
		id: 'change-password',
		lastResult: actionData?.intent === 'password' ? actionData.result : undefined,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangePasswordSchema }),
		// Errors clear while the user types, so nothing shifts under the pointer when they click submit.
		shouldRevalidate: 'onInput',
	})
	const [languageForm, languageFields] = useForm({
		id: 'language',
		lastResult: actionData?.intent === 'language' ? actionData.result : undefined,
		defaultValue: { language: preferredLanguage },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: LanguageSchema }),
	})
	const [deleteForm, deleteFields] = useForm({
		id: 'delete-account-form',
		lastResult: actionData?.intent === 'delete-account' ? actionData.result : undefined,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: DeleteAccountSchema }),
	})
	const [emailsForm, emailsFields] = useForm({
		// Not "emails": that is the panel's anchor, which the e-mails' preferences link opens.
		id: 'email-choices',
		lastResult: actionData?.intent === 'emails' ? actionData.result : undefined,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: EmailPreferencesSchema }),
	})
	const deleteButton = (
		<div className="form-actions">
			<StatusButton type="submit" status={isDeleting ? 'pending' : 'idle'} className="button--danger">
				{t('deletion.submit')}
			</StatusButton>
		</div>
	)
	return (
		<>
			<PageHeader title={t('settings.title')} />
			<div className="settings-grid">
				<Panel id="password-title" title={t(hasPassword ? 'settings.passwordTitle' : 'eid.setPasswordTitle')} className="card">
					{hasPassword ? (
						<Form method="post" className="form" {...getFormProps(passwordForm)}>
							<FormSecurity intent="password" />
							{/* Lets password managers tie the new password to this account. */}
							<input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
							<Field
								label={t('settings.oldPassword')}
								required
								inputProps={{ ...getInputProps(passwordFields.oldPassword, { type: 'password' }), autoComplete: 'current-password' }}
								errors={passwordFields.oldPassword.errors}
							/>
							<NewPasswordField
								field={passwordFields.password}
								validate={(name) => passwordForm.validate({ name })}
								label={t('settings.newPassword')}
								help={t('settings.passwordHelp')}
							/>
							<NewPasswordField field={passwordFields.confirmPassword} validate={(name) => passwordForm.validate({ name })} label={t('settings.confirmPassword')} />
							<FormActions submit={t('settings.passwordSubmit')} />
						</Form>
					) : (
						<SetPasswordForm text={t('eid.noPassword')} />
					)}
				</Panel>
				<Panel id="language-title" title={t('settings.languageTitle')} className="card">
					<p>{t('settings.languageText')}</p>
					<Form method="post" className="form" {...getFormProps(languageForm)}>
						<FormSecurity intent="language" />
						<SelectField
							label={t('settings.language')}
							selectProps={getSelectProps(languageFields.language)}
							options={supportedLanguages.map((language) => ({ value: language, label: t(`common:language.${language}`) }))}
							errors={languageFields.language.errors}
						/>
						<div className="form-actions">
							<button type="submit" className="button button--primary">
								{t('settings.languageSubmit')}
							</button>
						</div>
					</Form>
				</Panel>
				{emails.kinds.length ? (
					<Panel id="emails" title={t('settings.emailsTitle')} className="card">
						<p>{t('settings.emailsText')}</p>
						<Form method="post" className="form" {...getFormProps(emailsForm)}>
							<FormSecurity intent="emails" />
							{emails.newRequests ? (
								<SelectField
									label={t('settings.newRequests')}
									help={t('settings.newRequestsHelp')}
									selectProps={{ ...getSelectProps(emailsFields.newRequests), defaultValue: emails.newRequests }}
									options={newRequestModes.map((mode) => ({ value: mode, label: t(`settings.newRequestModes.${mode}`) }))}
									errors={emailsFields.newRequests.errors}
								/>
							) : null}
							<CheckboxGroup
								legend={t('settings.emailKindsLegend')}
								name="emails"
								options={emails.kinds.map((kind) => ({ value: kind, label: t(`settings.emailKinds.${kind}`) }))}
								defaultValue={emails.on}
								errors={emailsFields.emails.errors}
							/>
							<FormActions submit={t('settings.emailsSubmit')} />
						</Form>
					</Panel>
				) : null}
				{eid ? (
					<Panel id="eid" title={t('eid.title')} className="card">
						{eid.linked ? (
							<>
								<p>{t('eid.linkedText', { country: eid.linked.country, date: formatDate(eid.linked.linkedAt, language) })}</p>
								{hasPassword ? (
									<Form method="post" className="form">
										<FormSecurity intent="eid-unlink" />
										<p className="field__help">{t('eid.unlinkText')}</p>
										<div className="form-actions">
											<button type="submit" className="button button--ghost">
												{t('eid.unlink')}
											</button>
										</div>
									</Form>
								) : (
									<p className="form-note" data-testid="eid-unlink-refused">
										{t('eid.unlinkNeedsPassword')}
									</p>
								)}
							</>
						) : (
							<>
								<p>{t('eid.linkIntro')}</p>
								{eid.canLink ? (
									<div className="eid-choice">
										<EidButton href="/eid/start?purpose=link" label={t('eid.link')} />
									</div>
								) : null}
							</>
						)}
					</Panel>
				) : null}
				<Panel id="passkeys" title={t('passkeys.title')} className="card">
					<p>{t('passkeys.panelText')}</p>
					{passkeys ? <p>{t('passkeys.panelCount', { count: passkeys })}</p> : null}
					<div className="form-actions">
						<Link to="/settings/passkeys" className="button button--ghost">
							{t('passkeys.manage')}
						</Link>
					</div>
				</Panel>
				<Panel id="your-data" title={t('export.title')} className="card">
					<p>{t('export.text')}</p>
					<div className="form-actions">
						{/* A plain link: the ZIP is a download, not a page. */}
						<a href="/settings/export" className="button button--ghost" download>
							{t('export.download')}
						</a>
					</div>
				</Panel>
				<Panel id="delete-account" title={t('deletion.title')} className="card">
					<p>{t('deletion.text')}</p>
					<ul className="deletion-list">
						<li>{t('deletion.removed')}</li>
						<li>{t('deletion.kept')}</li>
						<li>{t('deletion.openJobsNote')}</li>
					</ul>
					{deletion.confirmed ? (
						<Form method="post" className="form">
							<FormSecurity intent="delete-account" />
							<p className="form-note" data-testid="deletion-confirmed">
								{t('deletion.confirmedText')}
							</p>
							{deleteButton}
						</Form>
					) : hasPassword ? (
						<Form method="post" className="form" {...getFormProps(deleteForm)}>
							<FormSecurity intent="delete-account" />
							<input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
							<Field
								label={t('deletion.password')}
								required
								help={t('deletion.passwordHelp')}
								inputProps={{ ...getInputProps(deleteFields.password, { type: 'password' }), autoComplete: 'current-password' }}
								errors={deleteFields.password.errors}
							/>
							<FormAlert id={deleteForm.errorId} errors={deleteForm.errors} />
							{deleteButton}
						</Form>
					) : (
						// No password (an account made with eID): confirm with the eID or a passkey first, or set a password by the e-mailed link.
						<div className="deletion-confirm">
							<p>{t('deletion.confirmFirst')}</p>
							<div className="step-up__choices">
								{deletion.withEid ? <EidButton href="/eid/start?purpose=confirm&redirectTo=%2Fsettings%23delete-account" label={t('deletion.confirmWithEid')} /> : null}
								{deletion.withPasskey && passkeys ? (
									<PasskeyConfirm
										intent="confirm-passkey"
										label={t('deletion.confirmWithPasskey')}
										error={actionData && 'passkey' in actionData ? actionData.passkey : undefined}
									/>
								) : null}
							</div>
							<p className="form-note">{t('deletion.orSetPassword')}</p>
						</div>
					)}
				</Panel>
			</div>
		</>
	)
}

/** An account without a password (made with eID) gets one by a reset link to its address. */
function SetPasswordForm({ text }: { text: string }) {
	const { t } = useTranslation('account')
	return (
		<Form method="post" className="form">
			<FormSecurity intent="set-password" />
			<p>{text}</p>
			<div className="form-actions">
				<button type="submit" className="button button--primary">
					{t('eid.setPassword')}
				</button>
			</div>
		</Form>
	)
}
