#!/usr/bin/env node
/**
 * CDK entry (cdk.json runs it with tsx). Settings come from context, e.g.
 *   npx cdk deploy -c deletionProtection=false -c throttleRateLimit=50 -c alarmEmail=ops@example.com
 */
import { serviceApp } from './service-app.js';

serviceApp();
