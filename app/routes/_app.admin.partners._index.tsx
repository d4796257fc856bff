import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, Link, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { FormActions, FormAlert, FormSecurity } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { Panel } from '~/components/panel'
import { PartnerFields } from '~/components/partner-fields'
import { issuePartnerKey, listPartners } from '~/domain/partners/partner-admin.server'
import { PARTNER_LIMITS, PartnerSchema } from '~/domain/partners/partners'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { formatDate, formatNumber } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { encodeId } from '~/utils/public-id'
import { readForm } from '~/uploads/multipart.server'
import { handleDomainError } from '~/utils/route-helpers.server'

/** /admin/partners (issue 37, decision 0154): the partner sites' keys, and issuing one. */
export async function loader({ request }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'admin' })
	const t = getFixedT(await getLanguage(request), 'admin')
	const partners = await listPartners()
	return { meta: { title: t('partners.title') }, partners: partners.map((partner) => ({ ...partner, slug: encodeId(partner.id) })) }
}

/**
 * Issues a key. The answer is this page with the key in it, once: it is not stored anywhere but as
 * its hash, and the page is never cached (a signed-in page is `private, no-store`).
 */
export async function action({ request }: ActionFunctionArgs) {
	const admin = await requireUser(request, { role: 'admin' })
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const submission = parseWithZod(formData, { schema: PartnerSchema })
	if (submission.status !== 'success') return data({ result: submission.reply(), issued: null }, { status: 400 })
	try {
		const issued = await issuePartnerKey(admin.id, submission.value)
		return { result: submission.reply({ resetForm: true }), issued: { slug: encodeId(issued.id), name: submission.value.name, key: issued.key } }
	} catch (error) {
		return handleDomainError(error, { as: 'form', submission, data: { issued: null } })
	}
}

export const meta = routeMeta<typeof loader>()

export default function AdminPartnersPage() {
	const { t } = useTranslation('admin')
	const language = useLanguage()
	const { partners } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const [form, fields] = useForm({
		id: 'partner-issue',
		lastResult: actionData?.result,
		defaultValue: { name: '', origins: '', rateLimitPerMinute: String(PARTNER_LIMITS.defaultPerMinute) },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: PartnerSchema }),
		shouldRevalidate: 'onInput',
	})
	const issued = actionData?.issued
	return (
		<>
			<PageHeader title={t('partners.title')} subtitle={t('partners.subtitle')} />
			{issued ? (
				<section className="card partner-issued" aria-labelledby="partner-issued-title" role="status">
					<h2 id="partner-issued-title">{t('partners.issuedTitle', { name: issued.name })}</h2>
					<p>{t('partners.issuedText')}</p>
					<div className="field">
						<label htmlFor="partner-issued-key" className="field__label">
							{t('partners.issuedKey')}
						</label>
						<input id="partner-issued-key" className="field__input admin-code" type="text" readOnly value={issued.key} spellCheck={false} autoComplete="off" />
					</div>
					<p>
						<Link to={`/admin/partners/${issued.slug}`}>{t('partners.issuedOpen')}</Link>
					</p>
				</section>
			) : null}
			{partners.length ? (
				// Scrolls sideways on a phone: focusable, so a keyboard scrolls it too (axe: scrollable-region-focusable).
				// eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
				<div className="admin-table-wrap panel" tabIndex={0} role="region" aria-label={t('partners.listLabel')}>
					<table className="table">
						<thead>
							<tr>
								<th scope="col">{t('partners.name')}</th>
								<th scope="col">{t('partners.key')}</th>
								<th scope="col">{t('partners.origins')}</th>
								<th scope="col" className="table__number">
									{t('partners.rateLimit')}
								</th>
								<th scope="col">{t('partners.created')}</th>
								<th scope="col">{t('partners.state')}</th>
							</tr>
						</thead>
						<tbody>
							{partners.map((partner) => (
								<tr key={partner.id}>
									<th scope="row">
										<Link to={`/admin/partners/${partner.slug}`}>{partner.name}</Link>
									</th>
									<td className="admin-code">{partner.keyPrefix}…</td>
									<td>
										<ul className="partner-origins partner-origins--table">
											{partner.allowedOrigins.map((origin) => (
												<li key={origin} className="admin-code">
													{origin}
												</li>
											))}
										</ul>
									</td>
									<td className="table__number">{formatNumber(partner.rateLimitPerMinute, language)}</td>
									<td>{formatDate(partner.createdAt, language)}</td>
									<td>
										{partner.revokedAt ? (
											<>
												<span className="badge admin-badge--inactive">{t('partners.revoked')}</span>
												<span className="admin-muted admin-audit__entity">{formatDate(partner.revokedAt, language)}</span>
											</>
										) : (
											t('partners.active')
										)}
									</td>
								</tr>
							))}
						</tbody>
					</table>
				</div>
			) : (
				<p className="empty">{t('partners.none')}</p>
			)}
			<Panel id="partner-issue-title" title={t('partners.issueTitle')} className="card">
				<p>{t('partners.issueText')}</p>
				<Form method="post" className="form" {...getFormProps(form)}>
					<FormSecurity />
					<FormAlert id={form.errorId} errors={form.errors} />
					<PartnerFields fields={fields} />
					<FormActions submit={t('partners.issueSubmit')} />
				</Form>
			</Panel>
		</>
	)
}
