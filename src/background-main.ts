// First: tracing (when OTEL_* configures it) must load before the modules it instruments.
import './infrastructure/tracing/start-tracing';
import 'reflect-metadata';
import { runBackgroundThread } from './composition/background/background-thread-main';

// The background thread the service process starts when BACKGROUND_WORK=thread.
runBackgroundThread();
