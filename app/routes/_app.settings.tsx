import { getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Field, FormSecurity, SelectField, StatusButton, useIsPending } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { ChangePasswordSchema, LanguageSchema } from '~/domain/accounts'
import { changePassword, setPreferredLanguage } from '~/domain/accounts.server'
import { supportedLanguages } from '~/i18n/config'
import { getFixedT, getLanguage, languageCookie } from '~/i18n/i18n.server'
import { type RootLoaderData } from '~/root'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { pageMeta } from '~/utils/meta'
import { redirectWithToast } from '~/utils/toast.server'

const signedIn = ['customer', 'workshop', 'admin'] as const

export async function loader({ request }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: signedIn })
	const language = await getLanguage(request)
	const t = getFixedT(language, 'account')
	return { meta: { title: t('settings.metaTitle') }, email: user.email, preferredLanguage: user.preferredLanguage ?? language }
}

export async function action({ request }: ActionFunctionArgs) {
	const user = await requireUser(request, { role: signedIn })
	const formData = await request.formData()
	await validateCsrf(request, formData)

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

export const meta: MetaFunction<typeof loader, { root: RootLoaderData }> = ({ data, matches }) =>
	pageMeta(data?.meta, matches.find((m) => m.id === 'root')?.data?.site.appname)

export default function SettingsPage() {
	const { t } = useTranslation('account')
	const { email, preferredLanguage } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const isPending = useIsPending()
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
	return (
		<>
			<PageHeader title={t('settings.title')} />
			<div className="settings-grid">
				<section className="card" aria-labelledby="password-title">
					<h2 id="password-title">{t('settings.passwordTitle')}</h2>
					<Form method="post" className="form" {...getFormProps(passwordForm)}>
						<FormSecurity />
						<input type="hidden" name="intent" value="password" />
						{/* Lets password managers tie the new password to this account. */}
						<input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
						<Field
							label={t('settings.oldPassword')}
							required
							inputProps={{ ...getInputProps(passwordFields.oldPassword, { type: 'password' }), autoComplete: 'current-password' }}
							errors={passwordFields.oldPassword.errors}
						/>
						<Field
							label={t('settings.newPassword')}
							required
							help={t('settings.passwordHelp')}
							inputProps={{ ...getInputProps(passwordFields.password, { type: 'password' }), autoComplete: 'new-password', maxLength: 12 }}
							errors={passwordFields.password.errors}
						/>
						<Field
							label={t('settings.confirmPassword')}
							required
							inputProps={{
								...getInputProps(passwordFields.confirmPassword, { type: 'password' }),
								autoComplete: 'new-password',
								maxLength: 12,
							}}
							errors={passwordFields.confirmPassword.errors}
						/>
						<div className="form-actions">
							<StatusButton type="submit" status={isPending ? 'pending' : 'idle'}>
								{t('settings.passwordSubmit')}
							</StatusButton>
						</div>
					</Form>
				</section>
				<section className="card" aria-labelledby="language-title">
					<h2 id="language-title">{t('settings.languageTitle')}</h2>
					<p>{t('settings.languageText')}</p>
					<Form method="post" className="form" {...getFormProps(languageForm)}>
						<FormSecurity />
						<input type="hidden" name="intent" value="language" />
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
				</section>
			</div>
		</>
	)
}
