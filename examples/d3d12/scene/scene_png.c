/*
 * scene_png.c — RGBA8 images to and from PNG files with libpng's
 * simplified API (png_image), which does the format work and reports
 * errors as messages instead of longjmp.
 */
#include "scene.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int scene_png_write(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height, char *err,
		    size_t err_size)
{
	return scene_png_write_rows(path, rgba, width, height, 4 * width, err, err_size);
}

int scene_png_write_rows(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height, uint32_t row_pitch,
			 char *err, size_t err_size)
{
	png_image img;
	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	img.width = width;
	img.height = height;
	img.format = PNG_FORMAT_RGBA;
	if (!png_image_write_to_file(&img, path, 0, rgba, (png_int_32)row_pitch, NULL)) {
		snprintf(err, err_size, "%s: %s", path, img.message);
		return -1;
	}
	return 0;
}

int scene_png_read(const char *path, uint8_t **rgba, uint32_t *width, uint32_t *height, char *err,
		   size_t err_size)
{
	png_image img;
	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	*rgba = NULL;
	if (!png_image_begin_read_from_file(&img, path)) {
		snprintf(err, err_size, "%s: %s", path, img.message);
		return -1;
	}
	img.format = PNG_FORMAT_RGBA;
	uint8_t *buf = malloc(PNG_IMAGE_SIZE(img));
	if (!buf) {
		png_image_free(&img);
		snprintf(err, err_size, "%s: out of memory", path);
		return -1;
	}
	if (!png_image_finish_read(&img, NULL, buf, 0, NULL)) {
		snprintf(err, err_size, "%s: %s", path, img.message);
		free(buf);
		return -1;
	}
	*rgba = buf;
	*width = img.width;
	*height = img.height;
	return 0;
}
