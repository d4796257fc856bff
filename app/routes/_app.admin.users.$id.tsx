import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from '~/components/button-link'
import { CompanyFields } from '~/components/company-fields'
import { Field, FormActions, FormAlert, FormSecurity } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { Panel } from '~/components/panel'
import { ChangeEmailSchema, CompanyFieldsSchema } from '~/domain/admin/admin'
import { DeleteAccountSchema } from '~/domain/privacy/account-deletion'
import { deleteAccountForUser } from '~/domain/privacy/account-deletion.server'
import { changeEmail, getUserForAdmin, setBlocked, updateCompanyFields } from '~/domain/admin/users.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { BadRequest } from '~/utils/failures.server'
import { formatDate, formatDateTime } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { handleDomainError, idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'admin' })
	const userId = idParam(params.id)
	const user = await getUserForAdmin(userId)
	if (!user) throw new Response('Not found', { status: 404 })
	const t = getFixedT(await getLanguage(request), 'admin')
	return { meta: { title: t('user.title', { name: user.deleted ? t('users.deletedName') : user.name }) }, user }
}

export async function action({ request, params }: ActionFunctionArgs) {
	const admin = await requireUser(request, { role: 'admin' })
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const userId = idParam(params.id)
	const here = new URL(request.url).pathname
	const intent = formData.get('intent')

	if (intent === 'block' || intent === 'unblock') {
		try {
			await or404(setBlocked(admin.id, userId, intent === 'block'))
		} catch (error) {
			return handleDomainError(error, { as: 'data', data: (text) => ({ intent, result: null, error: text }) })
		}
		return redirectWithToast(here, { type: 'success', key: intent === 'block' ? 'admin:user.blockedToast' : 'admin:user.unblockedToast' }, { request })
	}

	// On the user's request (issue 21): the administrator's own password confirms it; audited.
	if (intent === 'delete-account') {
		const hideFields = ['password']
		const submission = parseWithZod(formData, { schema: DeleteAccountSchema })
		if (submission.status !== 'success') return data({ intent, result: submission.reply({ hideFields }), error: null }, { status: 400 })
		try {
			await or404(deleteAccountForUser({ adminId: admin.id, userId, password: submission.value.password }))
		} catch (error) {
			return handleDomainError(error, { as: 'form', submission, hideFields, data: { intent, error: null } })
		}
		return redirectWithToast(here, { type: 'success', key: 'admin:user.deletedToast' }, { request })
	}

	if (intent === 'email') {
		const submission = parseWithZod(formData, { schema: ChangeEmailSchema })
		if (submission.status !== 'success') return data({ intent, result: submission.reply(), error: null }, { status: 400 })
		try {
			await or404(changeEmail(admin.id, userId, submission.value.email))
		} catch (error) {
			return handleDomainError(error, { as: 'form', submission, field: 'email', data: { intent, error: null } })
		}
		return redirectWithToast(here, { type: 'success', key: 'admin:user.emailSaved' }, { request })
	}

	if (intent === 'company') {
		const submission = parseWithZod(formData, { schema: CompanyFieldsSchema })
		if (submission.status !== 'success') return data({ intent, result: submission.reply(), error: null }, { status: 400 })
		await or404(updateCompanyFields(admin.id, userId, submission.value))
		return redirectWithToast(here, { type: 'success', key: 'admin:user.companySaved' }, { request })
	}

	throw new BadRequest(400)
}

export const meta = routeMeta<typeof loader>()

export default function AdminUserPage() {
	const { t } = useTranslation('admin')
	const language = useLanguage()
	const { user } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const [emailForm, emailFields] = useForm({
		id: 'admin-email',
		lastResult: actionData?.intent === 'email' ? actionData.result : undefined,
		defaultValue: { email: user.email },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: ChangeEmailSchema }),
		shouldRevalidate: 'onInput',
	})
	const [companyForm, companyFields] = useForm({
		id: 'admin-company',
		lastResult: actionData?.intent === 'company' ? actionData.result : undefined,
		defaultValue: { companyName: user.workshop?.companyName ?? '', companyId: user.workshop?.companyId ?? '' },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: CompanyFieldsSchema }),
		shouldRevalidate: 'onInput',
	})
	const [deleteForm, deleteFields] = useForm({
		id: 'admin-delete-account',
		lastResult: actionData?.intent === 'delete-account' ? actionData.result : undefined,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: DeleteAccountSchema }),
	})
	const blockError = actionData && 'error' in actionData && actionData.error ? [actionData.error] : undefined
	return (
		<>
			<PageHeader
				title={user.workshopName ?? (user.deleted ? t('users.deletedName') : user.name)}
				subtitle={t('user.subtitle', { role: t(`auth:roles.${user.role}`), date: formatDate(user.createdAt, language) })}
				actions={
					<ButtonLink to="/admin/users" kind="ghost" size="small">{t('user.back')}</ButtonLink>
				}
			/>
			<div className="admin-grid">
				<Panel id="account-title" title={t('user.account')} className="card">
					<dl className="admin-facts">
						<dt>{t('users.name')}</dt>
						<dd>{user.name}</dd>
						<dt>{t('users.email')}</dt>
						<dd>{user.email}</dd>
						<dt>{t('user.mobile')}</dt>
						<dd>{user.mobile || '–'}</dd>
						<dt>{t('users.state')}</dt>
						<dd>
							{user.deletedAt ? (
								<>
									<span className="badge admin-badge--blocked">{t('users.deleted')}</span> {t('user.deletedSince', { date: formatDateTime(user.deletedAt, language) })}
								</>
							) : user.blocked ? (
								<span className="badge admin-badge--blocked">
									{user.blockedAt ? t('user.blockedSince', { date: formatDateTime(user.blockedAt, language) }) : t('users.blocked')}
								</span>
							) : (
								t('users.active')
							)}
						</dd>
					</dl>
					<FormAlert errors={blockError} />
					<Form method="post" className="form" hidden={Boolean(user.deletedAt)}>
						<FormSecurity intent={user.blocked ? 'unblock' : 'block'} />
						<p>{user.blocked ? t('user.unblockText') : t('user.blockText')}</p>
						<button type="submit" className={user.blocked ? 'button button--primary' : 'button button--danger'}>
							{user.blocked ? t('user.unblock') : t('user.block')}
						</button>
					</Form>
				</Panel>
				<Panel id="email-title" title={t('user.emailTitle')} className="card">
					<p>{t('user.emailText')}</p>
					<Form method="post" className="form" {...getFormProps(emailForm)}>
						<FormSecurity intent="email" />
						<Field
							label={t('user.newEmail')}
							required
							inputProps={{ ...getInputProps(emailFields.email, { type: 'email' }), autoComplete: 'off' }}
							errors={emailFields.email.errors}
						/>
						<FormActions submit={t('user.emailSubmit')} />
					</Form>
				</Panel>
				{user.deletedAt ? null : (
					<Panel id="delete-title" title={t('user.deleteTitle')} className="card">
						<p>{t('user.deleteText')}</p>
						<FormAlert id={deleteForm.errorId} errors={deleteForm.errors} />
						<Form method="post" className="form" {...getFormProps(deleteForm)}>
							<FormSecurity intent="delete-account" />
							<Field
								label={t('user.deletePassword')}
								required
								inputProps={{ ...getInputProps(deleteFields.password, { type: 'password' }), autoComplete: 'current-password' }}
								errors={deleteFields.password.errors}
							/>
							<div className="form-actions">
								<button type="submit" className="button button--danger">
									{t('user.deleteSubmit')}
								</button>
							</div>
						</Form>
					</Panel>
				)}
				{user.workshop ? (
					<Panel id="company-title" title={t('user.companyTitle')} className="card">
						<p>{t('user.companyText')}</p>
						<Form method="post" className="form" {...getFormProps(companyForm)}>
							<FormSecurity intent="company" />
							<CompanyFields companyName={companyFields.companyName} companyId={companyFields.companyId} companyIdHelp={t('user.companyIdHelp')} />
							<FormActions submit={t('user.companySubmit')} />
						</Form>
					</Panel>
				) : null}
			</div>
		</>
	)
}
