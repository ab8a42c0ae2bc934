// First: tracing (when OTEL_* configures it) must load before the modules it instruments.
import './infrastructure/tracing/start-tracing';
import 'reflect-metadata';
import { runServiceProcess } from './composition/service/service-process';

// The service: `npm start`, `node dist/main.js`.
runServiceProcess();
