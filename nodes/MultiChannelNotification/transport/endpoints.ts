/** The service's endpoints (spec: Endpoints), below the credential's Base URL. */
export const ENDPOINTS = {
	chatMessage: '/v1/wa/message',
	sms: '/v1/sms/notification',
	combined: '/v1/combined/notification/failover',
} as const;
export type Endpoint = (typeof ENDPOINTS)[keyof typeof ENDPOINTS];
