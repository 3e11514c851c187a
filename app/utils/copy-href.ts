/** Addresses of the copy-trading screens. */

/** A provider's page. */
export const providerHref = (id: number) => `/rank/provider?id=${id}`;

/** The copy form of a provider. */
export const copyFormHref = (providerId: number) => `/rank/provider/copy?id=${providerId}`;

/** The user's copies. */
export const COPIES_HREF = "/mine/copies";

/** One copy's page. */
export const copyHref = (id: number) => `/mine/copies/${id}`;
